// The documented nginx site (deploy/nginx/subweave.conf) in front of the service: each real client keeps its own address.
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service.js';
import { signRequest } from '../../src/modules/admin/signature.js';
import { openTestDatabase, startTestApp, testConfig, type TestDatabase } from '../support/harness.js';
import { expectError } from '../support/expect.js';
import { waitFor } from '../support/time.js';
import {
  DEPLOY_CONF,
  nginxInstalled,
  NGINX_PATH,
  sendFrom,
  startNginx,
  testSite,
  type RunningNginx,
} from '../support/nginx.js';

const SKIP_REASON = `nginx deployment tests skipped: ${NGINX_PATH} not found (apt-get install nginx, or set NGINX_PATH)`;
if (!nginxInstalled()) console.warn(SKIP_REASON);

const ADMIN_SECRET = 'deploy-test-secret-of-at-least-32-characters';
/** Real clients: distinct loopback source addresses, as nginx sees them on its TCP connections. */
const A = '127.0.0.2';
const B = '127.0.0.3';
const C = '127.0.0.4';
const LIMITS = { RATE_LIMIT_PUBLIC_PER_MIN: '3', AUTO_BAN_VIOLATIONS: '2', DEFAULT_BAN_SECONDS: '600' };

interface Deployment {
  app: FastifyInstance;
  nginx: RunningNginx;
  database: TestDatabase;
  /** Log lines the service wrote (JSON, warn and above). */
  logs: string[];
  /** Every X-Forwarded-For header as the service received it, with the client address it settled on. */
  seen: Array<{ forwardedFor: string | string[] | undefined; clientIp: string | null }>;
  /** The public link of one subscription, as plain text. */
  link: string;
  /** That subscription's token, and its owner's API token. */
  token: string;
  apiToken: string;
}

/** The service on a free loopback port with `env`, a subscription to fetch, and nginx in front of it. */
async function deploy(env: Record<string, string>): Promise<Deployment> {
  const database = await openTestDatabase('sqlite');
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'warn' }, sink) as FastifyBaseLogger;
  const config = testConfig({ ...LIMITS, ADMIN_SECRET, LOG_LEVEL: 'warn', ...env });
  const { app } = await startTestApp(config, database.handle, {}, { logger });
  const seen: Deployment['seen'] = [];
  // Ahead of every handler, the link lane included: what nginx sent, and the client address the service takes from it.
  app.server.prependListener('request', (raw: IncomingMessage) => {
    seen.push({ forwardedFor: raw.headers['x-forwarded-for'], clientIp: app.clientIpOf(raw) });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');

  const user = await createUser(database.handle.db, 4242);
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/subs',
    headers: { 'api-token': user.api_token },
    payload: { name: 'behind nginx', sources: ['trojan://secret@tr.example.org:443#Edge'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const nginx = await startNginx(address.port);
  const token = created.json<{ token: string }>().token;
  return { app, nginx, database, logs, seen, link: `/sub/${token}?format=plain`, token, apiToken: user.api_token };
}

async function undeploy(deployment: Deployment | undefined): Promise<void> {
  await deployment?.nginx.stop();
  await deployment?.app.close();
  await deployment?.database.close();
}

let lastTimestamp = 0;

/** A signed admin request sent through nginx from `from`; `path` is the full path as sent. */
function admin(from: string, port: number, method: string, path: string, headers: Record<string, string> = {}) {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  const timestamp = String(lastTimestamp);
  const signature = signRequest(ADMIN_SECRET, { timestamp, method, pathWithQuery: path, body: '' });
  return sendFrom(from, port, method, path, { 'x-timestamp': timestamp, 'x-signature': signature, ...headers });
}

describe('generated test site', () => {
  it('keeps the documented proxy directives and moves only listen, TLS, logs and the upstream port', () => {
    const site = testSite(readFileSync(DEPLOY_CONF, 'utf8'), 40001, 40002, '/tmp/logs');
    expect(site).toContain('listen 127.0.0.1:40001;');
    expect(site).toContain('access_log /tmp/logs/access.log subweave;');
    expect(site).toMatch(/^log_format subweave /m);
    expect(site).toMatch(/^map \$request_uri \$subweave_log_path \{/m);
    expect(site).toContain('server 127.0.0.1:40002;');
    expect(site).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(site).toContain('proxy_pass http://subweave;');
    expect(site).toContain('client_max_body_size 1m;');
    expect(site).not.toMatch(/listen\s+(80|443)|ssl_certificate|return 301|8080/);
  });
});

(nginxInstalled() ? describe : describe.skip)(
  nginxInstalled() ? 'nginx in front, TRUST_PROXY=127.0.0.1' : SKIP_REASON,
  () => {
    let d: Deployment;
    beforeAll(async () => {
      d = await deploy({ TRUST_PROXY: '127.0.0.1', ADMIN_ALLOWED_IPS: A });
    });
    afterAll(() => undeploy(d));
    const get = (from: string, headers: Record<string, string> = {}) =>
      sendFrom(from, d.nginx.port, 'GET', d.link, headers);

    it('serves the link through nginx and hands the service exactly one X-Forwarded-For entry: the TCP peer', async () => {
      d.seen.length = 0;
      const res = await get(C, { 'x-forwarded-for': '198.51.100.7, 127.0.0.1' });
      expect(res.status, res.body).toBe(200);
      expect(res.body).toContain('trojan://secret@tr.example.org:443#Edge');
      // nginx replaced the forged header instead of appending to it.
      expect(d.seen).toEqual([{ forwardedFor: C, clientIp: C }]);
    });

    it('rate-limits each real client on its own budget', async () => {
      for (let i = 0; i < 3; i++) expect((await get(A)).status).toBe(200);
      expectError(await get(A), 429, 'rate_limited');
      expect((await get(B)).status).toBe(200);
    });

    it('bans the client that keeps going, and only that client; never the proxy', async () => {
      expectError(await get(A), 429, 'rate_limited'); // the second rejection bans A
      expectError(await get(A), 403, 'ip_banned');
      expect((await get(B)).status).toBe(200);
      // A is banned but still on ADMIN_ALLOWED_IPS: the admin API is never banned.
      const status = async (ip: string) =>
        (await admin(A, d.nginx.port, 'GET', `/api/v1/admin/ban/${ip}`)).json<{ is_banned: boolean }>().is_banned;
      expect(await status(A)).toBe(true);
      expect(await status(B)).toBe(false);
      expect(await status('127.0.0.1')).toBe(false);
    });

    it('gives a forged X-Forwarded-For no way out: nginx replaces it', async () => {
      expectError(await get(A, { 'x-forwarded-for': '198.51.100.7' }), 403, 'ip_banned');
      expectError(await get(A, { 'x-forwarded-for': `${B}, 127.0.0.1` }), 403, 'ip_banned');
      // B claiming to be A is charged as B (its third request this window), not refused as the banned A.
      expect((await get(B, { 'x-forwarded-for': A })).status).toBe(200);
      expectError(await get(B), 429, 'rate_limited');
      // C's budget is untouched by what B spent (C made one request above).
      expect((await get(C, { 'x-forwarded-for': B })).status).toBe(200);
    });

    it('lets the admin API see the real client: only 127.0.0.2 is allowed, forged headers do not help', async () => {
      const allowed = await admin(A, d.nginx.port, 'GET', '/api/v1/admin/bans');
      expect(allowed.status, allowed.body).toBe(200);
      const refused = await admin(B, d.nginx.port, 'GET', '/api/v1/admin/bans', { 'x-forwarded-for': A });
      expectError(refused, 403, 'ip_not_allowed');
      expect(refused.json<{ details: { ip: string } }>().details.ip).toBe(B);
    });

    it('passes the path as sent, so a signature over a percent-encoded path still matches', async () => {
      const res = await admin(A, d.nginx.port, 'GET', '/api/v1/admin/ban/2001%3Adb8%3A%3A1');
      expect(res.status, res.body).toBe(200);
      expect(res.json().is_banned).toBe(false);
    });

    it('logs no X-Forwarded-For warning when TRUST_PROXY is set, and nginx logs no error', () => {
      expect(d.logs.filter((line) => line.includes('X-Forwarded-For'))).toEqual([]);
      expect(d.nginx.errorLog()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
    });
  },
);

(nginxInstalled() ? describe : describe.skip)(
  nginxInstalled() ? 'nginx in front, TRUST_PROXY unset' : SKIP_REASON,
  () => {
    let d: Deployment;
    beforeAll(async () => {
      d = await deploy({ TRUST_PROXY: '' });
    });
    afterAll(() => undeploy(d));
    const get = (from: string) => sendFrom(from, d.nginx.port, 'GET', d.link);

    it('sees every client as the proxy, so one client gets everyone banned, and says why once', async () => {
      for (let i = 0; i < 3; i++) expect((await get(A)).status).toBe(200);
      expectError(await get(B), 429, 'rate_limited');
      expectError(await get(C), 429, 'rate_limited');
      expectError(await get(A), 403, 'ip_banned');
      expectError(await get(B), 403, 'ip_banned');

      const warnings = d.logs.filter((line) => line.includes('X-Forwarded-For') && line.includes('TRUST_PROXY'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0] as string).level).toBe(40);
    });
  },
);

(nginxInstalled() ? describe : describe.skip)(
  nginxInstalled() ? 'nginx access log without tokens' : SKIP_REASON,
  () => {
    let d: Deployment;
    beforeAll(async () => {
      d = await deploy({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_PUBLIC_PER_MIN: '0', AUTO_BAN_VIOLATIONS: '0' });
    });
    afterAll(() => undeploy(d));

    it('logs every token-bearing request with <token> in place of the token, and the Referer likewise', async () => {
      const t = d.token;
      const browser = { accept: 'text/html' };
      const api = { 'api-token': d.apiToken };
      const requests: Array<[string, string, Record<string, string>, number, string]> = [
        // method, path, headers, status, the path as the log shows it
        ['GET', `/sub/${t}?format=plain`, {}, 200, '/sub/<token>?format=plain'],
        ['GET', `/sub/${t}/mihomo`, {}, 200, '/sub/<token>/mihomo'],
        ['GET', `/sub/${t}/`, { 'user-agent': 'sing-box 1.12.0' }, 200, '/sub/<token>/'],
        ['GET', `/api/v1/sub/${t}/xray`, {}, 200, '/api/v1/sub/<token>/xray'],
        ['GET', `/sub/${t}`, browser, 200, '/sub/<token>'], // the page
        ['GET', `/sub/${t}`, { referer: `https://sub.test/sub/${t}?x=${t}` }, 200, '/sub/<token>'],
        ['GET', `/sub/${t}?format=plain&token=${t}`, {}, 200, '/sub/<token>?<query>'],
        ['GET', `/api/v1/subs/${t}`, api, 200, '/api/v1/subs/<token>'],
        ['POST', `/api/v1/subs/${t}/refresh`, api, 200, '/api/v1/subs/<token>/refresh'],
        ['GET', `//SUB//${t}`, {}, 404, '//SUB//<token>'],
        ['GET', `/unknown/${t}`, {}, 404, '/unknown/<token>'],
        ['GET', `/sub/${t.slice(0, 20)}`, {}, 404, '/sub/<token>'],
      ];
      for (const [method, path, headers, status, logged] of requests) {
        const res = await sendFrom('127.0.0.5', d.nginx.port, method, path, headers);
        expect(res.status, `${method} ${path}: ${res.body}`).toBe(status);
        // nginx writes the line once the answer is complete; wait until it is there.
        await waitFor(5_000, async () => d.nginx.accessLog().includes(`"${method} ${logged} HTTP/1.1" ${status}`));
        expect(d.nginx.accessLog()).toContain(`"${method} ${logged} HTTP/1.1" ${status}`);
      }
      const log = d.nginx.accessLog();
      expect(log.trim().split('\n')).toHaveLength(requests.length);
      expect(log).toContain('"https://sub.test/sub/<token>"');
      expect(log).not.toContain(t);
      expect(log).not.toContain(t.slice(0, 20));
      expect(log).not.toContain(d.apiToken);
    });
  },
);
