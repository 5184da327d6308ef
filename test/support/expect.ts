// Strict checks of shapes many tests assert: the error envelope every non-2xx answer carries (docs/api.md "Errors"),
// whatever the test holds (an app.inject response, a raw socket answer, or the body a CLI printed), and a new provider.
import { expect } from 'vitest';
import { ERROR_CATALOG, type ErrorCode } from '../../src/http/error-catalog.js';

export interface ErrorEnvelope {
  error: ErrorCode;
  message: string;
  details: Record<string, unknown> | null;
  /** Only on a 429: the seconds in Retry-After (docs/api.md, Errors). */
  retry_after?: number;
}

/** What app.inject answers (statusCode) and what test/support/raw-http.ts reads off a socket (status). */
export type TestResponse =
  | { statusCode: number; headers: Record<string, unknown>; body: string }
  | { status: number; headers: Record<string, unknown>; body: string };

/**
 * Asserts the status, a JSON content type and the exact `{error, message, details}` envelope with `code` (which the
 * catalog must give that status; a 429 adds `retry_after`, equal to Retry-After); returns the envelope. `label` names the case in failure messages.
 */
export function expectError(response: TestResponse, status: number, code: ErrorCode, label?: string): ErrorEnvelope {
  const actual = 'statusCode' in response ? response.statusCode : response.status;
  expect(actual, label ?? response.body).toBe(status);
  expect(ERROR_CATALOG[code], `catalog status of ${code}`).toBe(status);
  expect(String(response.headers['content-type']), label).toMatch(/^application\/json/);
  const envelope = expectEnvelope(JSON.parse(response.body), code, label);
  if (status === 429) expect(String(response.headers['retry-after']), label).toBe(String(envelope.retry_after));
  return envelope;
}

/** The envelope check alone, for a body that did not come with an HTTP status (such as `subweave admin` stderr). */
export function expectEnvelope(body: unknown, code: ErrorCode, label?: string): ErrorEnvelope {
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), label).toBe(true);
  const envelope = body as ErrorEnvelope;
  const rateLimited = ERROR_CATALOG[code] === 429;
  const keys = rateLimited ? ['details', 'error', 'message', 'retry_after'] : ['details', 'error', 'message'];
  expect(Object.keys(envelope).sort(), label).toEqual(keys);
  if (rateLimited) expect(Number.isInteger(envelope.retry_after) && envelope.retry_after! >= 0, label).toBe(true);
  expect(envelope.error, label).toBe(code);
  expect(typeof envelope.message, label).toBe('string');
  expect(envelope.message.trim().length, label).toBeGreaterThan(0);
  const details = envelope.details;
  expect(details === null || (typeof details === 'object' && !Array.isArray(details)), label).toBe(true);
  return envelope;
}

/** Asserts the status (the body is the failure message) and hands the response back. */
export function expectStatus<R extends { statusCode: number; body: string }>(response: R, status: number): R {
  expect(response.statusCode, response.body).toBe(status);
  return response;
}

/** The keys of a Provider (docs/admin-api.md); a freshly created one adds `api_token`. */
export const PROVIDER_KEYS = ['created_at', 'is_active', 'owner_id', 'provider_hash', 'provider_name', 'provider_url'];
/** A version-4 UUID (user and provider hashes) and an API token (32 random bytes, base64url). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A provider as creation answers it, by the admin API or the service: active, its fields, a UUID hash and its token. */
export function expectNewProvider(
  created: { provider_hash: string; api_token?: string },
  fields: { provider_name: string; provider_url: string; owner_id: number },
): void {
  expect(Object.keys(created).sort()).toEqual([...PROVIDER_KEYS, 'api_token'].sort());
  expect(created).toMatchObject({ ...fields, is_active: true });
  expect(created.provider_hash).toMatch(UUID_RE);
  expect(created.api_token).toMatch(TOKEN_RE);
}
