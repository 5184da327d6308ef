// Compressed public links: the brotli and gzip forms of every cached body, chosen by Accept-Encoding, through Fastify's inject and through the link lane over real HTTP.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { createUser } from '../../src/modules/users/users.service.js';
import {
  describeEachDatabase,
  openTestDatabase,
  startTestApp,
  testConfig,
  type TestDatabase,
} from '../support/harness.js';
import { freshUserId, ssUri, trojanUri, vlessUri } from '../support/factories.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

type Path = 'inject' | 'lane';
type Method = 'GET' | 'HEAD';

const FORMATS = ['base64', 'mihomo', 'sing-box', 'xray', 'sip008'] as const;

/** What the client receives, its body left as it came (compressed or not). */
function overHttp(base: string, path: string, headers: Record<string, string>, method: Method): Promise<Answer> {
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

function decoded(answer: Answer): Buffer {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  expect(coding).toBeUndefined();
  return answer.body;
}

describeEachDatabase('compressed links', (kind) => {
  let app: FastifyInstance;
  let context: AppContext;
  let database: TestDatabase;
  let base: string;
  let user: { api_token: string };
  let token: string;

  const get = async (path: Path, url: string, headers: Record<string, string> = {}, method: Method = 'GET') => {
    if (path === 'lane') return overHttp(base, url, headers, method);
    const res = await app.inject({ method, url, headers });
    return { status: res.statusCode, headers: res.headers, body: res.rawPayload } as Answer;
  };
  /** Over HTTP the first request for a coding may be Fastify's (it waits for the form); the next one is the lane's. */
  const warmed = async (path: Path, url: string, headers: Record<string, string> = {}, method: Method = 'GET') => {
    if (path === 'inject') return get(path, url, headers, method);
    await get(path, url, headers, method);
    const before = context.metrics.laneAnswers;
    const answer = await get(path, url, headers, method);
    expect(context.metrics.laneAnswers).toBe(before + 1);
    return answer;
  };

  let links = 0;
  /** Each link gets a user of its own (a user holds at most three). */
  const newLink = async (sources: string[]) => {
    user = await createUser(database.handle.db, freshUserId());
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/subs',
      headers: { 'api-token': user.api_token },
      payload: { name: `Compressed ${++links}`, sources },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ token: string }>().token;
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    ({ app, context } = await startTestApp(testConfig({ RATE_LIMIT_PUBLIC_PER_MIN: '0' }), database.handle));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Shadowsocks servers too, so the SIP008 body is over 1 KiB as well.
    token = await newLink(Array.from({ length: 6 }, () => [vlessUri(), trojanUri(), ssUri()]).flat());
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  describe.each(['inject', 'lane'] as const)('through %s', (path) => {
    it.each(FORMATS)('serves %s as br, gzip and identity, each decoding to the identity body', async (format) => {
      const url = `/sub/${token}/${format}`;
      const identity = await warmed(path, url, { 'accept-encoding': 'identity' });
      expect(identity.status).toBe(200);
      expect(identity.body.length).toBeGreaterThanOrEqual(1024);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.headers['vary']).toContain('accept-encoding');
      const etag = String(identity.headers['etag']);
      for (const coding of ['br', 'gzip'] as const) {
        const answer = await warmed(path, url, { 'accept-encoding': coding });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(answer.headers['vary']).toBe(identity.headers['vary']);
        expect(answer.headers['etag']).toBe(`${etag.slice(0, -1)}-${coding}"`);
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        expect(answer.body.length).toBeLessThan(identity.body.length);
        expect(decoded(answer).equals(identity.body)).toBe(true);
        expect(answer.headers['content-type']).toBe(identity.headers['content-type']);
      }
    });

    const choices: Array<[string, string | undefined, 'br' | 'gzip' | undefined]> = [
      ['no Accept-Encoding', undefined, undefined],
      ['an empty Accept-Encoding', '', undefined],
      ['a browser', 'gzip, deflate, br, zstd', 'br'],
      ['a Go client', 'gzip', 'gzip'],
      ['br first on a tie', 'gzip;q=0.8, br;q=0.8', 'br'],
      ['the higher q', 'br;q=0.5, gzip', 'gzip'],
      ['br refused with q=0', 'br;q=0, gzip', 'gzip'],
      ['both refused with q=0', 'br;q=0, gzip;q=0', undefined],
      ['identity preferred by q', 'gzip;q=0.5, identity', undefined],
      ['identity refused', 'identity;q=0, gzip', 'gzip'],
      ['a wildcard', '*', 'br'],
      ['a wildcard below gzip', '*;q=0.5, gzip', 'gzip'],
      ['a wildcard refused', '*;q=0', undefined],
      ['x-gzip', 'x-gzip', 'gzip'],
      ['capitals and spaces', ' GZIP ; Q=1 ', 'gzip'],
      ['a malformed q', 'br;q=high', undefined],
      ['only unknown codings', 'deflate, compress', undefined],
    ];
    it.each(choices)('chooses by Accept-Encoding: %s', async (_name, accept, coding) => {
      const headers: Record<string, string> = accept === undefined ? {} : { 'accept-encoding': accept };
      const answer = await warmed(path, `/sub/${token}`, headers);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers['vary']).toContain('accept-encoding');
    });

    it('answers 304 to the ETag of the form it would send, and 200 to another form', async () => {
      const url = `/sub/${token}/mihomo`;
      const forms: Record<string, string> = {};
      for (const coding of ['identity', 'br', 'gzip']) {
        forms[coding] = String((await warmed(path, url, { 'accept-encoding': coding })).headers['etag']);
      }
      expect(new Set(Object.values(forms)).size).toBe(3);
      for (const coding of ['identity', 'br', 'gzip']) {
        const held = await warmed(path, url, { 'accept-encoding': coding, 'if-none-match': forms[coding]! });
        expect(held.status).toBe(304);
        expect(held.body.length).toBe(0);
        expect(held.headers['etag']).toBe(forms[coding]);
        expect(held.headers['vary']).toContain('accept-encoding');
        expect(held.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
      }
      // The identity ETag does not stand for the brotli bytes, nor the gzip ETag for the identity ones.
      const other = await warmed(path, url, { 'accept-encoding': 'br', 'if-none-match': forms['identity']! });
      expect(other.status).toBe(200);
      expect(other.headers['content-encoding']).toBe('br');
      const plain = await warmed(path, url, { 'if-none-match': `W/${forms['gzip']!}` });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
    });

    it('answers HEAD with the compressed length and no body', async () => {
      const url = `/sub/${token}/xray`;
      const full = await warmed(path, url, { 'accept-encoding': 'gzip' });
      const head = await warmed(path, url, { 'accept-encoding': 'gzip' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-encoding']).toBe('gzip');
      expect(head.headers['content-length']).toBe(String(full.body.length));
      expect(head.headers['etag']).toBe(full.headers['etag']);
      const observed = (await context.metrics.text())
        .split('\n')
        .find((line) => line.startsWith('subweave_http_request_duration_seconds_count{') && line.includes('"HEAD"'));
      expect(observed).toContain('route="/sub/:token/:format"');
    });

    it('sends a body under 1 KiB as it is, with Vary and its one ETag', async () => {
      const small = await newLink([trojanUri()]);
      const identity = await warmed(path, `/sub/${small}`, {});
      expect(identity.body.length).toBeLessThan(1024);
      for (const accept of ['br', 'gzip', 'gzip, deflate, br']) {
        const answer = await warmed(path, `/sub/${small}`, { 'accept-encoding': accept });
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(answer.headers['vary']).toContain('accept-encoding');
        expect(answer.headers['etag']).toBe(identity.headers['etag']);
        expect(answer.body.equals(identity.body)).toBe(true);
      }
    });

    it('compresses the link page for a browser', async () => {
      const browser = { 'user-agent': 'Mozilla/5.0', accept: 'text/html' };
      const identity = await warmed(path, `/sub/${token}`, browser);
      expect(identity.headers['content-type']).toMatch(/^text\/html/);
      const answer = await warmed(path, `/sub/${token}`, { ...browser, 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.headers['content-encoding']).toBe('br');
      expect(decoded(answer).equals(identity.body)).toBe(true);
    });
  });

  it('counts every form against the cache budget and drops all of them with the entry on a change', async () => {
    const changing = await newLink(Array.from({ length: 8 }, () => [vlessUri(), ssUri()]).flat());
    const cache = context.renderCache;
    const identity = await get('inject', `/sub/${changing}/sing-box`);
    const before = cache.byteSize;
    const gzip = await get('inject', `/sub/${changing}/sing-box`, { 'accept-encoding': 'gzip' });
    expect(cache.byteSize).toBe(before + gzip.body.length);
    const br = await get('inject', `/sub/${changing}/sing-box`, { 'accept-encoding': 'br' });
    expect(cache.byteSize).toBe(before + gzip.body.length + br.body.length);

    const old = cache.peek(changing);
    const replaced = await app.inject({
      method: 'PUT',
      url: `/api/v1/subs/${changing}/sources`,
      headers: { 'api-token': user.api_token },
      payload: {
        sources: Array.from(
          { length: 8 },
          (_, i) => `ss://YWVzLTEyOC1nY206c2VjcmV0@changed${i}.example.com:8388#c${i}`,
        ),
      },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    // The write may resolve the link again (its answer reports the new sources): a new entry, with no forms yet.
    expect(cache.peek(changing)).not.toBe(old);
    expect(cache.byteSize).toBeLessThan(before);

    for (const path of ['inject', 'lane'] as const) {
      const fresh = await get(path, `/sub/${changing}/sing-box`);
      expect(fresh.headers['etag']).not.toBe(identity.headers['etag']);
      for (const coding of ['br', 'gzip'] as const) {
        const answer = await get(path, `/sub/${changing}/sing-box`, { 'accept-encoding': coding });
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(decoded(answer).equals(fresh.body)).toBe(true);
        expect(decoded(answer).toString()).toContain('changed7.example.com');
      }
    }
  });
});
