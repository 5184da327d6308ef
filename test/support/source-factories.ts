// Factories for source strings and small API helpers shared by the subscription/source HTTP tests.
import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { TEST_BASE_URL, type TestApp } from './harness.js';
import type { SourceView, SubscriptionView } from '../../src/modules/subscriptions/subscriptions.schemas.js';

let counter = 0;

/** A short label unique within this test process, usable in host names. */
export function unique(prefix = 'n'): string {
  counter += 1;
  return `${prefix}${counter}-${randomUUID().slice(0, 8)}`;
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

/** First 32 hex chars of SHA-256: the source id formula of DESIGN.md section 4, recomputed independently. */
export function sha32(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** Response shapes, taken from the schemas the server serialises with. */
export type Source = SourceView;
export type Subscription = SubscriptionView;

/** Asserts an error envelope with the given status and code and returns its details. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ error: string; message: string; details: Record<string, unknown> | null }>();
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body.details ?? {};
}

/** API helpers bound to one test app. */
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
