// The link lane (warm public links answered ahead of Fastify) against Fastify's own route: same answers, same checks, same accounting, over real HTTP.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { RequestCounter } from '../../src/modules/stats/request-counter.js';
import { createUser } from '../../src/modules/users/users.service.js';
import {
  connectedRedis,
  counterBackends,
  describeEachDatabase,
  openTestDatabase,
  redisUrl,
  signedInject,
  startTestApp,
  testConfig,
  uniqueRedisPrefix,
  type CounterBackend,
  type TestDatabase,
} from '../support/harness.js';
import { freshUserId, trojanUri, vlessUri } from '../support/factories.js';
import { expectEnvelope, UUID_RE } from '../support/expect.js';

const SECRET = 'lane-secret-of-at-least-32-characters';
/** Inject warms the cache from this address, so 127.0.0.1 (the HTTP client) keeps its whole budget. */
const WARMING_IP = '198.51.100.7';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request over a real socket, as a client app sends it. */
function overHttp(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const fromInject = (res: LightMyRequestResponse): Answer => ({
  status: res.statusCode,
  headers: res.headers as IncomingHttpHeaders,
  body: res.rawPayload,
});

/** What a client can rely on: status, body and headers, without the per-connection and per-request ones. */
function comparable(answer: Answer): { status: number; headers: Record<string, unknown>; body: string } {
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (!['date', 'connection', 'keep-alive', 'x-request-id'].includes(name)) headers[name] = value;
  }
  return { status: answer.status, headers, body: answer.body.toString('base64') };
}

interface LaneApp {
  app: FastifyInstance;
  context: AppContext;
  base: string;
  lines: string[];
  database: TestDatabase;
  close(): Promise<void>;
}

async function startLaneApp(
  kind: Parameters<typeof openTestDatabase>[0],
  env: Record<string, string>,
  backend: CounterBackend = 'memory',
): Promise<LaneApp> {
  const database = await openTestDatabase(kind);
  const redis = backend === 'redis' ? await connectedRedis(redisUrl as string) : null;
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  // Counts stay in memory for the whole suite, where the test reads them.
  const requestCounter = new RequestCounter({ write: async () => undefined, flushIntervalMs: 3_600_000 });
  const { app, context } = await startTestApp(
    testConfig({ ADMIN_SECRET: SECRET, REDIS_PREFIX: uniqueRedisPrefix(), ...env }),
    database.handle,
    { requestCounter, redis },
    { logger: { level: 'info', stream } },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const close = async () => {
    await app.close();
    await redis?.quit();
    await database.close();
  };
  return { app, context, base, lines, database, close };
}

async function newLink(t: LaneApp, body: Record<string, unknown> = {}): Promise<string> {
  const user = await createUser(t.database.handle.db, freshUserId());
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/subs',
    headers: { 'api-token': user.api_token },
    payload: { name: 'Lane ☂', sources: [vlessUri(), trojanUri(), vlessUri()], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  const token = res.json<{ token: string }>().token;
  // Resolved once through Fastify: from here on the lane can answer.
  const warm = await t.app.inject({ method: 'GET', url: `/sub/${token}`, remoteAddress: WARMING_IP });
  expect(warm.statusCode).toBe(200);
  return token;
}

const publicCount = (context: AppContext) =>
  context.requestCounter
    .pendingRows()
    .filter((row) => row.kind === 'public')
    .reduce((sum, row) => sum + row.count, 0);

function requestSeries(metricsText: string, route: string, status: number): number {
  const line = metricsText
    .split('\n')
    .find(
      (l) =>
        l.startsWith('subweave_http_request_duration_seconds_count{') &&
        l.includes(`route="${route}"`) &&
        l.includes(`status="${status}"`),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describeEachDatabase('the link lane', (kind) => {
  describe('with no public budget', () => {
    let t: LaneApp;
    let token: string;
    let etag: string;
    beforeAll(async () => {
      t = await startLaneApp(kind, { RATE_LIMIT_PUBLIC_PER_MIN: '0' });
      token = await newLink(t, { support_url: 'https://help.example.com', announce: 'Hello ☂' });
      etag = String((await overHttp(t.base, `/sub/${token}`)).headers['etag']);
    });
    afterAll(async () => {
      await t?.close();
    });

    const answered: Array<[string, () => string, Record<string, string>]> = [
      ['the short link', () => `/sub/${token}`, {}],
      ['the API mount', () => `/api/v1/sub/${token}`, {}],
      ['a trailing slash', () => `/sub/${token}/`, {}],
      ['a path format', () => `/sub/${token}/mihomo`, {}],
      ['a path format alias with a slash', () => `/api/v1/sub/${token}/clash/`, {}],
      ['sing-box', () => `/sub/${token}/sing-box`, {}],
      ['xray', () => `/sub/${token}/xray`, {}],
      ['a query format', () => `/sub/${token}?format=plain`, {}],
      ['a client rule', () => `/sub/${token}`, { 'user-agent': 'clash.meta/1.18.0' }],
      ['the page for a browser', () => `/sub/${token}`, { 'user-agent': 'Mozilla/5.0', accept: 'text/html' }],
      ['the page in Persian', () => `/sub/${token}`, { accept: 'text/html', 'accept-language': 'fa-IR,fa;q=0.9' }],
      ["the page in the cookie's language", () => `/sub/${token}`, { accept: 'text/html', cookie: 'subweave_lang=ru' }],
      [
        'the page on a phone',
        () => `/sub/${token}`,
        { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (Linux; Android 14)' },
      ],
      ['a matching If-None-Match', () => `/sub/${token}`, {}],
      ['a weak If-None-Match', () => `/sub/${token}`, {}],
      ['If-None-Match *', () => `/sub/${token}`, { 'if-none-match': '*' }],
      ['a stale If-None-Match', () => `/sub/${token}`, { 'if-none-match': '"stale"' }],
    ];
    it.each(answered)('answers %s exactly as the Fastify route does', async (name, path, given) => {
      const headers = { ...given };
      if (name === 'a matching If-None-Match') headers['if-none-match'] = etag;
      if (name === 'a weak If-None-Match') headers['if-none-match'] = `W/${etag}, "other"`;
      const before = t.context.metrics.laneAnswers;
      const lane = await overHttp(t.base, path(), headers);
      expect(t.context.metrics.laneAnswers).toBe(before + 1);
      const fastify = fromInject(await t.app.inject({ method: 'GET', url: path(), headers }));
      expect(comparable(lane)).toEqual(comparable(fastify));
      expect(lane.headers['x-request-id']).toMatch(UUID_RE);
      expect([200, 304]).toContain(lane.status);
    });

    const handedOn: Array<[string, () => string, string]> = [
      ['an unknown path format', () => `/sub/${token}/nope`, 'GET'],
      ['an unknown query format', () => `/sub/${token}?format=nope`, 'GET'],
      ['an empty query format', () => `/sub/${token}?format=`, 'GET'],
      ['two query formats', () => `/sub/${token}?format=plain&format=mihomo`, 'GET'],
      ['another query', () => `/sub/${token}?format=plain&x=1`, 'GET'],
      ['a percent-encoded path', () => `/%73ub/${token}`, 'GET'],
      ['an unknown token', () => '/sub/NoSuchTokenAtAll', 'GET'],
      ['a token that is no token', () => '/sub/a.b', 'GET'],
      ['a case variant', () => `/SUB/${token}`, 'GET'],
      ['POST', () => `/sub/${token}`, 'POST'],
    ];
    it.each(handedOn)('hands %s to Fastify, which answers it', async (_name, path, method) => {
      const before = t.context.metrics.laneAnswers;
      const lane = await overHttp(t.base, path(), {}, method);
      expect(t.context.metrics.laneAnswers).toBe(before);
      const fastify = fromInject(await t.app.inject({ method: method as 'GET', url: path() }));
      expect(comparable(lane)).toEqual(comparable(fastify));
    });

    it('answers HEAD with the headers of the GET and no body, as the Fastify route does', async () => {
      const before = t.context.metrics.laneAnswers;
      const lane = await overHttp(t.base, `/sub/${token}/mihomo`, { 'accept-encoding': 'identity' }, 'HEAD');
      expect(t.context.metrics.laneAnswers).toBe(before + 1);
      const get = await overHttp(t.base, `/sub/${token}/mihomo`, { 'accept-encoding': 'identity' });
      const fastify = fromInject(
        await t.app.inject({ method: 'HEAD', url: `/sub/${token}/mihomo`, headers: { 'accept-encoding': 'identity' } }),
      );
      expect(lane.status).toBe(200);
      expect(lane.body.length).toBe(0);
      expect(comparable(lane)).toEqual(comparable(fastify));
      expect(comparable(lane).headers).toEqual(comparable(get).headers);
      expect(Number(lane.headers['content-length'])).toBe(get.body.length);
    });

    it('keeps a safe X-Request-Id and makes one for anything else', async () => {
      const kept = await overHttp(t.base, `/sub/${token}`, { 'x-request-id': 'client-1.2:abc' });
      expect(kept.headers['x-request-id']).toBe('client-1.2:abc');
      const replaced = await overHttp(t.base, `/sub/${token}`, { 'x-request-id': 'bad id' });
      expect(replaced.headers['x-request-id']).toMatch(UUID_RE);
    });

    it('hands a blocked client to Fastify: 403 client_blocked', async () => {
      const rules = await signedInject(t.app, SECRET, 'GET', '/format-rules');
      const current = rules.json<{ rules: unknown[] }>().rules;
      const block = { id: 'no-curl', header: 'user-agent', match: 'prefix', value: 'curl/', result: 'block' };
      const set = await signedInject(t.app, SECRET, 'PUT', '/format-rules', { rules: [block, ...current] });
      expect(set.statusCode, set.body).toBe(200);
      const before = t.context.metrics.laneAnswers;
      const refused = await overHttp(t.base, `/sub/${token}`, { 'user-agent': 'curl/8.5.0' });
      expect(refused.status).toBe(403);
      expectEnvelope(JSON.parse(refused.body.toString()), 'client_blocked');
      expect(t.context.metrics.laneAnswers).toBe(before);
      const reset = await signedInject(t.app, SECRET, 'PUT', '/format-rules', { rules: current });
      expect(reset.statusCode, reset.body).toBe(200);
    });

    it('counts, observes and logs each answer as the Fastify route does', async () => {
      const path = `/sub/${token}`;
      const countsBefore = publicCount(t.context);
      const metricsBefore = requestSeries(await t.context.metrics.text(), '/sub/:token', 200);
      t.lines.length = 0;
      await overHttp(t.base, path, { 'x-request-id': 'lane-line' });
      await t.app.inject({ method: 'GET', url: path, headers: { 'x-request-id': 'fastify-line' } });
      expect(publicCount(t.context)).toBe(countsBefore + 2);
      expect(requestSeries(await t.context.metrics.text(), '/sub/:token', 200)).toBe(metricsBefore + 2);

      const logged = t.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const laneLine = logged.find((entry) => entry['reqId'] === 'lane-line');
      const fastifyLine = logged.find((entry) => entry['reqId'] === 'fastify-line');
      const without = (entry: Record<string, unknown> | undefined) => {
        const { reqId: _id, time: _time, responseTime, req, ...rest } = entry ?? {};
        expect(typeof responseTime).toBe('number');
        const { remoteAddress: _address, ...request } = req as Record<string, unknown>;
        return { ...rest, req: request };
      };
      expect(without(laneLine)).toEqual(without(fastifyLine));
      expect(Object.keys(laneLine ?? {})).toEqual(Object.keys(fastifyLine ?? {}));
      // Built by hand: ASCII only, the token's ellipsis escaped.
      expect(t.lines.find((line) => line.includes('"lane-line"'))).toMatch(/^[\x20-\x7e]+$/);
      expect(laneLine).toMatchObject({ msg: 'request completed', req: { url: `/sub/${token.slice(0, 6)}…` } });
      expect(t.lines.join('\n')).not.toContain(token);
    });

    it('serves a change at once: the lane never answers from an invalidated entry', async () => {
      const user = await createUser(t.database.handle.db, freshUserId());
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/subs',
        headers: { 'api-token': user.api_token },
        payload: { name: 'changing', sources: ['trojan://pw@before.example.com:443#before'] },
      });
      const changing = created.json<{ token: string }>().token;
      const plain = async () => (await overHttp(t.base, `/sub/${changing}?format=plain`)).body.toString();
      expect(await plain()).toContain('before.example.com');
      const replaced = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/subs/${changing}/sources`,
        headers: { 'api-token': user.api_token },
        payload: { sources: ['trojan://pw@after.example.com:443#after'] },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(await plain()).toContain('after.example.com');
    });

    it('hands requests to Fastify once the server is stopping: 503 shutting_down', async () => {
      t.context.beginShutdown();
      const before = t.context.metrics.laneAnswers;
      const answer = await overHttp(t.base, `/sub/${token}`);
      expect(answer.status).toBe(503);
      expectEnvelope(JSON.parse(answer.body.toString()), 'shutting_down');
      expect(answer.headers['connection']).toBe('close');
      expect(t.context.metrics.laneAnswers).toBe(before);
    });
  });

  describe.each(counterBackends())('with a public budget (%s counters), bans and a trusted proxy', (backend) => {
    let t: LaneApp;
    let token: string;
    beforeAll(async () => {
      t = await startLaneApp(kind, { RATE_LIMIT_PUBLIC_PER_MIN: '4', TRUST_PROXY: '127.0.0.1' }, backend);
      token = await newLink(t);
    });
    afterAll(async () => {
      await t?.close();
    });
    const from = (ip: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...extra });

    it('charges each request once, whichever path answers it, and refuses the fifth with 429', async () => {
      const ip = '203.0.113.10';
      const before = t.context.metrics.laneAnswers;
      const first = await overHttp(t.base, `/sub/${token}`, from(ip));
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-limit']).toBe('4');
      expect(first.headers['ratelimit-remaining']).toBe('3');
      // Charged by the lane, then answered by Fastify (400): the same request is not charged twice.
      const unknown = await overHttp(t.base, `/sub/${token}?format=nope`, from(ip));
      expect(unknown.status).toBe(400);
      expect(unknown.headers['ratelimit-remaining']).toBe('2');
      const third = await overHttp(t.base, `/sub/${token}/mihomo`, from(ip));
      expect(third.headers['ratelimit-remaining']).toBe('1');
      const fourth = await overHttp(t.base, `/sub/${token}`, from(ip, { 'if-none-match': '*' }));
      expect(fourth.status).toBe(304);
      expect(fourth.headers['ratelimit-remaining']).toBe('0');
      expect(t.context.metrics.laneAnswers).toBe(before + 3);

      const refused = await overHttp(t.base, `/sub/${token}`, from(ip));
      expect(refused.status).toBe(429);
      const body = expectEnvelope(JSON.parse(refused.body.toString()), 'rate_limited');
      expect(body.retry_after).toBe(Number(refused.headers['retry-after']));
      expect(t.context.metrics.laneAnswers).toBe(before + 3);
      expect(await t.context.metrics.text()).toMatch(/subweave_rate_limit_rejections_total\{limit="public"\} 1\n/);
    });

    it('answers a budgeted request with the same headers as the Fastify route', async () => {
      const lane = await overHttp(t.base, `/sub/${token}`, from('203.0.113.11'));
      const fastify = fromInject(
        await t.app.inject({ method: 'GET', url: `/sub/${token}`, headers: from('203.0.113.12') }),
      );
      expect(comparable(lane)).toEqual(comparable(fastify));
      expect(lane.headers['ratelimit-remaining']).toBe('3');
    });

    it('hands a banned client to Fastify: 403 ip_banned', async () => {
      const banned = await signedInject(t.app, SECRET, 'POST', '/ban', {
        ip_address: '203.0.113.20',
        duration_seconds: 600,
      });
      expect(banned.statusCode, banned.body).toBeLessThan(300);
      const before = t.context.metrics.laneAnswers;
      const refused = await overHttp(t.base, `/sub/${token}`, from('203.0.113.20'));
      expect(refused.status).toBe(403);
      expectEnvelope(JSON.parse(refused.body.toString()), 'ip_banned');
      expect(t.context.metrics.laneAnswers).toBe(before);
      expect((await overHttp(t.base, `/sub/${token}`, from('203.0.113.21'))).status).toBe(200);
      expect(t.context.metrics.laneAnswers).toBe(before + 1);
    });

    it('answers a whitelisted client without charging it', async () => {
      const listed = await signedInject(t.app, SECRET, 'POST', '/whitelist', { ip_address: '203.0.113.30' });
      expect(listed.statusCode, listed.body).toBeLessThan(300);
      for (let i = 0; i < 6; i++) {
        const answer = await overHttp(t.base, `/sub/${token}`, from('203.0.113.30'));
        expect(answer.status).toBe(200);
        expect(answer.headers['ratelimit-remaining']).toBeUndefined();
      }
    });

    it('hands a forwarded entry that is no address to Fastify: 400 invalid_forwarded_for', async () => {
      const refused = await overHttp(t.base, `/sub/${token}`, from('not-an-address'));
      expect(refused.status).toBe(400);
      expectEnvelope(JSON.parse(refused.body.toString()), 'invalid_forwarded_for');
    });
  });

  describe('behind a proxy that is not trusted', () => {
    let t: LaneApp;
    beforeAll(async () => {
      t = await startLaneApp(kind, { RATE_LIMIT_PUBLIC_PER_MIN: '0' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('warns once that X-Forwarded-For is ignored, and answers from the socket address', async () => {
      const token = await newLink(t);
      t.lines.length = 0;
      for (let i = 0; i < 3; i++) {
        const answer = await overHttp(t.base, `/sub/${token}`, { 'x-forwarded-for': '203.0.113.40' });
        expect(answer.status).toBe(200);
      }
      const warnings = t.lines.filter((line) => line.includes('TRUST_PROXY is unset'));
      expect(warnings).toHaveLength(1);
    });
  });
});
