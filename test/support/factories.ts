// The one place tests get fresh ids, names, addresses and source strings, and the users, providers, subscriptions
// and connections made from them (through the database, a service, or the HTTP API of a test app).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Executor } from '../../src/db/executor.js';
import type { ProvidersService } from '../../src/modules/providers/providers.service.js';
import type { SourceView, SubscriptionView } from '../../src/modules/subscriptions/subscriptions.schemas.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { expectStatus } from './expect.js';
import type { TestApp } from './harness.js';

/** PUBLIC_BASE_URL of every test app. */
export const TEST_BASE_URL = 'http://sub.test';

let counter = 0;

/** A short label unique within this test process, usable in host names. */
export function unique(prefix = 'n'): string {
  counter += 1;
  return `${prefix}${counter}-${randomUUID().slice(0, 8)}`;
}

/** Above 2^32, as Telegram ids can be; random per test process so parallel files on one database never collide. */
let nextUserId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1_000;

export function freshUserId(): number {
  return nextUserId++;
}

let providerCounter = 0;

/** A valid provider name unique within this run: 4-16 lower-case letters and digits. */
export function uniqueProviderName(): string {
  return `p${randomBytes(4).toString('hex')}${(providerCounter++).toString(36)}`.slice(0, 16);
}

let nextAddress = randomBytes(2).readUInt16BE();

/** A fresh IPv4 address (benchmarking range 198.18.0.0/16) per call, so tests never share a counter or a ban. */
export function freshIp(): string {
  nextAddress = (nextAddress + 1) % 65_536;
  return `198.18.${nextAddress >> 8}.${nextAddress & 0xff}`;
}

const host = (label: string): string => `${unique(label)}.example.com`;

/** A valid vless URI on a unique host (no fragment). */
export function vlessUri(): string {
  return `vless://${randomUUID()}@${host('vl')}:443?security=tls&type=ws`;
}

export function trojanUri(): string {
  return `trojan://${unique('pw')}@${host('tr')}:443?sni=example.org`;
}

/** SIP002 form with base64 `method:password` userinfo. */
export function ssUri(): string {
  const userinfo = Buffer.from(`chacha20-ietf-poly1305:${unique('pw')}`).toString('base64');
  return `ss://${userinfo}@${host('ss')}:8388`;
}

/** v2rayN-style base64 JSON; `ps` is the server name it carries (none by default). */
export function vmessJsonUri(ps = ''): string {
  const json = { v: '2', ps, add: host('vm'), port: 443, id: randomUUID(), aid: 0, net: 'ws' };
  return `vmess://${Buffer.from(JSON.stringify(json)).toString('base64')}`;
}

export function hysteria2Uri(): string {
  return `hysteria2://${unique('pw')}@${host('hy')}:443?sni=example.org`;
}

export function hy2Uri(): string {
  return `hy2://${unique('pw')}@${host('hy')}:8443`;
}

export function tuicUri(): string {
  return `tuic://${randomUUID()}:pw@${host('tu')}:443?congestion_control=bbr`;
}

export function wireguardUri(): string {
  return `wireguard://${unique('key')}@${host('wg')}:51820?publickey=abc`;
}

export function socks5Uri(): string {
  return `socks5://user:pass@${host('so')}:1080`;
}

/** A unique external subscription URL on a public-looking host (never fetched successfully offline). */
export function externalUrl(): string {
  return `https://${host('feed')}/sub?format=base64`;
}

/** The canonical internal reference link for a subscription token. */
export function internalRef(token: string): string {
  return `${TEST_BASE_URL}/api/v1/sub/${token}`;
}

/** First 32 hex chars of SHA-256: the source id formula of docs/api.md (Identifiers and tokens), recomputed independently. */
export function sha32(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** Response shapes, taken from the schemas the server serialises with. */
export type Source = SourceView;
export type Subscription = SubscriptionView;

export interface TestUser {
  userId: number;
  token: string;
}

export interface TestProvider {
  hash: string;
  name: string;
  token: string;
  ownerId: number;
}

/** A user written straight to the database; answers its id and API token. */
export async function createTestUser(db: Executor, userId = freshUserId()): Promise<TestUser> {
  const user = await createUser(db, userId);
  return { userId, token: user.api_token };
}

/** A provider owned by a fresh user, created through the providers service. */
export async function createTestProvider(
  db: Executor,
  providers: ProvidersService,
  options: { name?: string; url?: string } = {},
): Promise<TestProvider> {
  const owner = await createTestUser(db);
  const name = options.name ?? uniqueProviderName();
  const created = await providers.create({
    owner_id: owner.userId,
    provider_name: name,
    provider_url: options.url ?? `https://${name}.example.com`,
  });
  return { hash: created.provider_hash, name, token: created.api_token, ownerId: owner.userId };
}

/** Subscription API helpers bound to one test app. */
export function subsApi(t: TestApp) {
  const base = '/api/v1/subs';
  return {
    /** Creates a subscription (status asserted) for `userToken`, or for a fresh user when omitted. */
    async create(sources: unknown[] = [], userToken?: string): Promise<Subscription & { userToken: string }> {
      const owner = userToken ?? (await t.newUser()).token;
      const res = await t.call('POST', base, { token: owner, body: { name: unique('sub'), sources } });
      expect(res.statusCode, res.body).toBe(201);
      return { ...res.json<Subscription>(), userToken: owner };
    },
    async get(userToken: string, token: string): Promise<Subscription> {
      const res = await t.call('GET', `${base}/${token}`, { token: userToken });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Subscription>();
    },
    add: (userToken: string, token: string, sources: unknown) =>
      t.call('POST', `${base}/${token}/sources`, { token: userToken, body: { sources } }),
    replace: (userToken: string, token: string, sources: unknown) =>
      t.call('PUT', `${base}/${token}/sources`, { token: userToken, body: { sources } }),
    remove: (userToken: string, token: string, sourceIds: unknown) =>
      t.call('DELETE', `${base}/${token}/sources`, { token: userToken, body: { source_ids: sourceIds } }),
    config: (userToken: string, token: string, body: unknown) =>
      t.call('PATCH', `${base}/${token}/config`, { token: userToken, body }),
    comments: (userToken: string, token: string, body: unknown) =>
      t.call('PATCH', `${base}/${token}/comments`, { token: userToken, body }),
    /** Source rows stored for a subscription, straight from the database, in order. */
    storedRows: (token: string) =>
      t.database.db
        .selectFrom('sources')
        .selectAll()
        .where('subscription_token', '=', token)
        .orderBy('order_index')
        .execute(),
  };
}

/** The single source in `sources` with this id (asserted to exist). */
export function byId(sources: Source[], id: string): Source {
  const found = sources.find((s) => s.id === id);
  expect(found, `source ${id}`).toBeDefined();
  return found as Source;
}

/** The lines a public link serves (plain format), or the status when it is not 200. */
export async function linkLines(t: TestApp, token: string): Promise<string[] | number> {
  const res = await t.call('GET', `/api/v1/sub/${token}?format=plain`);
  if (res.statusCode !== 200) return res.statusCode;
  return res.body === '' ? [] : res.body.split('\n');
}

/** The lines of the public link in plain format, asserting it answers 200. */
export async function plainLines(t: TestApp, token: string): Promise<string[]> {
  const res = await t.call('GET', `/api/v1/sub/${token}?format=plain`);
  expect(res.statusCode, res.body).toBe(200);
  return res.body === '' ? [] : res.body.split('\n');
}

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

export async function adminCreateUser(t: TestApp, userId = freshUserId()): Promise<AdminUser> {
  const res = await t.admin('POST', '/users', { user_id: userId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<AdminUser>();
}

/** A provider owned by a fresh user (or `owner`), created through the admin API; carries its api_token. */
export async function adminCreateProvider(
  t: TestApp,
  owner?: AdminUser,
  name = uniqueProviderName(),
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

export const PROVIDERS = '/api/v1/providers';
export const ME = '/api/v1/me';

/** The provider asks for access to the user (201 expected). */
export async function requestAccess(t: TestApp, provider: TestProvider, userId: number) {
  return expectStatus(await t.call('POST', `${PROVIDERS}/${userId}`, { token: provider.token }), 201).json<{
    user_id: number;
    status: string;
    connection_link: string | null;
  }>();
}

/** The two times every existing connection carries, for exact answers (test/api/me.test.ts checks their values). */
export const CONNECTION_DATES = { created_at: expect.any(String), status_changed_at: expect.any(String) };

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
