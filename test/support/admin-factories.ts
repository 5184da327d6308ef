// Admin-API helpers shared by the admin HTTP tests: users and providers made through signed calls, provider-managed subscriptions.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from './harness.js';
import { subsApi, vlessUri } from './source-factories.js';

export interface AdminUser {
  user_id: number;
  user_hash: string;
  api_token: string;
  is_active: boolean;
  created_at: string;
}

export interface AdminProvider {
  provider_hash: string;
  provider_name: string;
  provider_url: string;
  owner_id: number;
  is_active: boolean;
  created_at: string;
  api_token?: string;
}

let nextId = 5_000_000 + Math.floor(Math.random() * 1_000_000) * 1_000;

export function freshUserId(): number {
  return nextId++;
}

/** A valid provider name unique within this run: 4-16 lower-case letters and digits. */
export function providerName(): string {
  return `p${randomBytes(5).toString('hex')}`;
}

export async function adminCreateUser(t: TestApp, userId = freshUserId()): Promise<AdminUser> {
  const res = await t.admin('POST', '/users', { user_id: userId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<AdminUser>();
}

/** A provider owned by a fresh user (or `owner`), created through the admin API; carries its api_token. */
export async function adminCreateProvider(
  t: TestApp,
  owner?: AdminUser,
  name = providerName(),
): Promise<AdminProvider> {
  const ownerUser = owner ?? (await adminCreateUser(t));
  const res = await t.admin('POST', '/providers', {
    owner_hash: ownerUser.user_hash,
    provider_name: name,
    provider_url: `https://${name}.example.com`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<AdminProvider>();
}

/** A subscription with one config, created by the user and then marked as managed by the provider in the database. */
export async function managedSubscription(t: TestApp, userToken: string, providerHash: string): Promise<string> {
  const sub = await subsApi(t).create([vlessUri()], userToken);
  await t.database.db
    .updateTable('subscriptions')
    .set({ provider_hash: providerHash, scope: providerHash })
    .where('token', '=', sub.token)
    .execute();
  return sub.token;
}

/** The lines a public link serves (plain format), or the status when it is not 200. */
export async function linkLines(t: TestApp, token: string): Promise<string[] | number> {
  const res = await t.call('GET', `/api/v1/sub/${token}?format=plain`);
  if (res.statusCode !== 200) return res.statusCode;
  return res.body === '' ? [] : res.body.split('\n');
}
