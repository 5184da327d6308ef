// GET /metrics: the allowlist without a signature, every series after real traffic, values that move, and no token in any label.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { freshIp, subsApi, unique, vlessUri } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import { text, upstreamLines, useUpstream } from '../support/upstream-server.js';
import { withClockAhead } from '../support/time.js';

const REFRESH_SECONDS = 60;

/** Every series the endpoint must show once the app has served requests, fetched, refreshed and refused. */
const SERIES = [
  'subweave_http_request_duration_seconds_bucket',
  'subweave_http_request_duration_seconds_count',
  'subweave_http_request_duration_seconds_sum',
  'subweave_render_cache_hits_total',
  'subweave_render_cache_misses_total',
  'subweave_render_cache_entries',
  'subweave_render_cache_bytes',
  'subweave_upstream_fetch_duration_seconds_count',
  'subweave_upstream_fetches_active',
  'subweave_refresher_cycle_duration_seconds_count',
  'subweave_refresher_backlog',
  'subweave_db_pool_connections',
  'subweave_db_pool_idle_connections',
  'subweave_db_pool_waiting',
  'subweave_rate_limit_rejections_total',
  'subweave_auto_bans_total',
  'subweave_banned_requests_total',
  'subweave_process_cpu_seconds_total',
  'subweave_process_resident_memory_bytes',
  'subweave_nodejs_eventloop_lag_seconds',
  'subweave_nodejs_heap_size_used_bytes',
];

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (label values here never hold quotes or commas). */
function samples(body: string): Sample[] {
  return body
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        (match[2] ? match[2].split(',') : []).map((pair) => {
          const [key, value] = pair.split('=');
          return [key as string, JSON.parse(value as string) as string];
        }),
      );
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels`. */
function value(body: string, name: string, labels: Record<string, string> = {}): number {
  return samples(body)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(t: TestApp): Promise<string> {
  const res = await t.call('GET', '/metrics');
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

describeEachDatabase('GET /metrics', (kind) => {
  // One public request per minute and IP, two rejections ban: each test reads links from fresh addresses.
  const t = useTestApp(kind, {
    RATE_LIMIT_PUBLIC_PER_MIN: '1',
    AUTO_BAN_VIOLATIONS: '2',
    REFRESH_INTERVAL_SECONDS: String(REFRESH_SECONDS),
  });
  const subs = subsApi(t);
  const upstream = useUpstream();
  const link = (token: string, ip = freshIp()) => t.call('GET', `/sub/${token}`, { ip });

  it('answers unsigned requests from ADMIN_ALLOWED_IPS in the Prometheus text format', async () => {
    const res = await t.call('GET', '/metrics');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(() => samples(res.body)).not.toThrow();
  });

  it('refuses any other address with 403 ip_not_allowed', async () => {
    const ip = freshIp();
    const res = await t.call('GET', '/metrics', { ip });
    expect(expectError(res, 403, 'ip_not_allowed').details).toEqual({ ip });
  });

  it('shows every series once the app has served, fetched, refreshed and refused', async () => {
    const feed = upstream.current.add(upstreamLines(3).join('\n'));
    const sub = await subs.create([vlessUri(), feed]);
    const ip = freshIp();
    expect((await link(sub.token, ip)).statusCode).toBe(200);
    expect((await link(sub.token, ip)).statusCode).toBe(429);
    await t.context.refresher.tick();
    const body = await scrape(t);
    const names = new Set(samples(body).map((s) => s.name));
    expect(SERIES.filter((name) => !names.has(name))).toEqual([]);
  });

  it('labels requests by route pattern and kind, unknown paths as unmatched, and never shows a token or a name', async () => {
    const name = unique('secret-name');
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', { token: owner.token, body: { name, sources: [vlessUri()] } });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json<{ token: string }>();
    const before = await scrape(t);
    const labels = { method: 'GET', route: '/sub/:token', kind: 'public', status: '200' };
    const stray = unique('stray');
    expect((await link(sub.token)).statusCode).toBe(200);
    expect((await t.call('GET', `/api/v1/sub/${sub.token}/mihomo`, { ip: freshIp() })).statusCode).toBe(200);
    expect((await t.call('GET', `/nothing/${stray}`, { ip: freshIp() })).statusCode).toBe(404);
    const after = await scrape(t);
    const count = 'subweave_http_request_duration_seconds_count';
    expect(value(after, count, labels) - value(before, count, labels)).toBe(1);
    const formatRoute = { route: '/api/v1/sub/:token/:format', kind: 'public', status: '200' };
    expect(value(after, count, formatRoute) - value(before, count, formatRoute)).toBe(1);
    const unmatched = { route: 'unmatched', kind: 'anonymous', status: '404' };
    expect(value(after, count, unmatched) - value(before, count, unmatched)).toBe(1);
    for (const secret of [sub.token, sub.token.slice(0, 8), name, stray]) expect(after).not.toContain(secret);
    const routes = new Set(samples(after).flatMap((s) => (s.labels['route'] ? [s.labels['route']] : [])));
    for (const route of routes) expect(route === 'unmatched' || route.startsWith('/'), route).toBe(true);
  });

  it('counts a render cache miss, then a hit, and sizes the cache', async () => {
    const hits = 'subweave_render_cache_hits_total';
    const misses = 'subweave_render_cache_misses_total';
    const moved = (from: string, to: string) => [
      value(to, hits) - value(from, hits),
      value(to, misses) - value(from, misses),
    ];
    const before = await scrape(t);
    expect((await link(randomBytes(24).toString('base64url'))).statusCode).toBe(404);
    const missed = await scrape(t);
    expect(moved(before, missed)).toEqual([0, 1]);
    const sub = await subs.create([vlessUri(), vlessUri()]);
    expect((await link(sub.token)).statusCode).toBe(200);
    const read = await scrape(t);
    expect((await link(sub.token)).statusCode).toBe(200);
    expect(moved(read, await scrape(t))).toEqual([1, 0]);
    const body = await scrape(t);
    expect(value(body, 'subweave_render_cache_entries')).toBe(t.context.renderCache.size);
    expect(value(body, 'subweave_render_cache_bytes')).toBe(t.context.renderCache.byteSize);
    expect(value(body, 'subweave_render_cache_bytes')).toBeGreaterThan(value(before, 'subweave_render_cache_bytes'));
  });

  it('counts upstream fetches by outcome', async () => {
    const feed = upstream.current.add(upstreamLines(3).join('\n'));
    const broken = upstream.current.add(text('down', 503));
    const fetches = 'subweave_upstream_fetch_duration_seconds_count';
    const before = await scrape(t);
    const sub = await subs.create([feed, broken]);
    const created = await scrape(t);
    expect(value(created, fetches, { outcome: 'ok' }) - value(before, fetches, { outcome: 'ok' })).toBe(1);
    const failed = (body: string) => value(body, fetches, { outcome: 'http_status' });
    expect(failed(created) - failed(before)).toBe(1);
    const refreshed = await t.call('POST', `/api/v1/subs/${sub.token}/refresh`, { token: sub.userToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const again = await scrape(t);
    const unchanged = (body: string) => value(body, fetches, { outcome: 'unchanged' });
    expect(unchanged(again) - unchanged(created)).toBe(1);
    expect(failed(again) - failed(created)).toBe(1);
  });

  it('times refresher passes and shows the backlog of due URLs until a pass fetches them', async () => {
    await subs.create([upstream.current.add(upstreamLines(2).join('\n'))]);
    const cycles = 'subweave_refresher_cycle_duration_seconds_count';
    const before = await scrape(t);
    expect(value(before, 'subweave_refresher_backlog')).toBe(0);
    await withClockAhead(2 * REFRESH_SECONDS * 1000, async () => {
      expect(value(await scrape(t), 'subweave_refresher_backlog')).toBeGreaterThan(0);
      await t.context.refresher.tick();
      const after = await scrape(t);
      expect(value(after, 'subweave_refresher_backlog')).toBe(0);
      expect(value(after, cycles) - value(before, cycles)).toBe(1);
    });
  });

  it('counts rate-limit rejections, the automatic ban they cause, and requests refused for it', async () => {
    const sub = await subs.create([vlessUri()]);
    const ip = freshIp();
    const before = await scrape(t);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await link(sub.token, ip)).statusCode);
    expect(statuses).toEqual([200, 429, 429, 403]);
    const after = await scrape(t);
    const diff = (name: string, labels?: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(diff('subweave_rate_limit_rejections_total', { limit: 'public' })).toBe(2);
    expect(diff('subweave_auto_bans_total')).toBe(1);
    expect(diff('subweave_banned_requests_total')).toBe(1);
  });

  it('shows the database pool', async () => {
    const body = await scrape(t);
    const total = value(body, 'subweave_db_pool_connections');
    if (kind === 'sqlite') expect(total).toBe(1);
    else expect(total).toBeGreaterThanOrEqual(1);
    expect(value(body, 'subweave_db_pool_idle_connections')).toBeLessThanOrEqual(total);
    expect(value(body, 'subweave_db_pool_waiting')).toBe(0);
  });
});

describe('GET /metrics behind a trusted proxy', () => {
  const t = useTestApp('sqlite', { TRUST_PROXY: '127.0.0.1', ADMIN_ALLOWED_IPS: '198.51.100.7' });

  it('judges the forwarded client address, not the proxy', async () => {
    const allowed = await t.call('GET', '/metrics', { headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expectError(await t.call('GET', '/metrics'), 403, 'ip_not_allowed');
    const other = await t.call('GET', '/metrics', { headers: { 'x-forwarded-for': '198.51.100.8' } });
    expect(expectError(other, 403, 'ip_not_allowed').details).toEqual({ ip: '198.51.100.8' });
  });
});
