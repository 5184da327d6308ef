// Helpers for provider and connection suites: the error envelope check and the request-then-approve flow.
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TestProvider } from './harness.js';

export const PROVIDERS = '/api/v1/providers';
export const ME = '/api/v1/me';

/** Asserts the status and the `{error, message, details}` envelope with the given code; returns the body. */
export function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<{ error: string; message: string; details: unknown }>();
  expect(Object.keys(body).sort()).toEqual(['details', 'error', 'message']);
  expect(body.error).toBe(code);
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.details === null || typeof body.details === 'object').toBe(true);
  return body;
}

export function expectStatus(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  return response;
}

/** The provider asks for access to the user (201 expected). */
export async function requestAccess(t: TestApp, provider: TestProvider, userId: number) {
  return expectStatus(await t.call('POST', `${PROVIDERS}/${userId}`, { token: provider.token }), 201).json<{
    user_id: number;
    status: string;
    connection_link: string | null;
  }>();
}

/** The user decides on the provider's request: approve, reject or revoke. */
export function decide(t: TestApp, userToken: string, providerName: string, action: 'approve' | 'reject' | 'revoke') {
  return t.call('POST', `${ME}/providers/${providerName}/${action}`, { token: userToken });
}

/** A provider with an approved connection to a fresh user. */
export async function approvedPair(t: TestApp) {
  const user = await t.newUser();
  const provider = await t.newProvider();
  await requestAccess(t, provider, user.userId);
  expectStatus(await decide(t, user.token, provider.name, 'approve'), 200);
  return { user, provider, subs: `${PROVIDERS}/${user.userId}/subs` };
}

export async function connectionStatus(t: TestApp, provider: TestProvider, userId: number): Promise<string | null> {
  const response = await t.call('GET', `${PROVIDERS}/${userId}`, { token: provider.token });
  if (response.statusCode === 404) return null;
  return expectStatus(response, 200).json<{ status: string }>().status;
}
