// No upstream body can hurt the process (docs/security.md, docs/reliability.md): hostile profiles are refused before parsing or fail on the parser worker as `upstream_unparseable`, never parsed inline, and the refresher backs their URL off.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { subsApi } from '../support/factories.js';
import { upstreamLines, useUpstream } from '../support/upstream-server.js';
import { ExternalSources } from '../../src/modules/fetch/external-sources.js';
import { createUpstreamClient, type UpstreamClient } from '../../src/modules/fetch/upstream.js';
import { externalSourcesOptions, upstreamOptions } from '../../src/context.js';
import type { SubscriptionView } from '../../src/modules/subscriptions/subscriptions.schemas.js';

const INLINE_MAX_BYTES = 64 * 1024;
const MINUTE_MS = 60_000;
/** Starting the real worker from the TypeScript sources compiles them with tsx, which takes seconds on a busy machine. */
const WORKER_TIMEOUT_MS = 60_000;

/** A mihomo profile whose `proxies` value is `depth` nested flow sequences (4,500 deep is 9 KB). */
const deepYaml = (depth: number): string => `proxies: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;

/** A mihomo profile nested `depth` deep through block indentation (`- ` items inside `- ` items). */
const deepBlockYaml = (depth: number): string =>
  `proxies:\n${Array.from({ length: depth }, (_, i) => `${' '.repeat(i * 2)}-`).join('\n')} x\n`;

const deepJson = (depth: number): string => `{"outbounds":${'['.repeat(depth)}${']'.repeat(depth)}}`;

/** A profile of at least `bytes` whose 1,001 or more proxies each merge one anchored map. */
function mergeBomb(bytes: number): string {
  const items: string[] = [];
  for (let i = 0; items.join('\n').length < bytes || i <= 1_000; i++) items.push(`  - {<<: *base, name: n${i}}`);
  return `base: &base {type: ss, server: a.example.com, port: 1, cipher: aes-128-gcm, password: p}\nproxies:\n${items.join('\n')}\n`;
}

/** Nine levels of ten aliases each: few aliases for the pre-scan, refused by the parser's expansion bound. */
function laughs(): string {
  const levels = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 10; i++)
    levels.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return `${levels.join('\n')}\nproxies: *l9\n`;
}

/** Upstream lines making up a plain-text body just over the inline size: the worker parses it. */
function largeLines(): string[] {
  const lines = upstreamLines(1_000);
  while (lines.join('\n').length <= INLINE_MAX_BYTES) lines.push(...upstreamLines(200));
  return lines;
}

function hostileApi(t: TestApp) {
  const subs = subsApi(t);
  const row = (url: string) =>
    t.database.db.selectFrom('external_cache').selectAll().where('url', '=', url).executeTakeFirst();
  return {
    /** A subscription on `url`; returns its token and the external source once the first fetch is done. */
    async create(url: string) {
      const sub = await subs.create([url]);
      // The first start of the worker (from the TypeScript sources) may outlast the create's wait for the fetch.
      await expect
        .poll(async () => (await row(url))?.last_attempt_at ?? null, { timeout: WORKER_TIMEOUT_MS, interval: 100 })
        .not.toBeNull();
      const res = await t.call('GET', `/api/v1/subs/${sub.token}`, { token: sub.userToken });
      expect(res.statusCode, res.body).toBe(200);
      const view = res.json<SubscriptionView>();
      return { token: sub.token, source: view.sources.find((s) => s.source_type === 'external_url') };
    },
    /** The process still answers. */
    async alive() {
      expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
    },
    row: async (url: string) => {
      const found = await row(url);
      expect(found).toBeDefined();
      return found as NonNullable<typeof found>;
    },
    /** Moves the last attempt back two hours, so an interval of 15 minutes makes the URL due. */
    makeDue: (url: string) =>
      t.database.db
        .updateTable('external_cache')
        .set({ last_attempt_at: new Date(Date.now() - 120 * MINUTE_MS).toISOString() })
        .where('url', '=', url)
        .execute(),
    endBackoff: (url: string) =>
      t.database.db
        .updateTable('external_cache')
        .set({ backoff_until: new Date(Date.now() - 1000).toISOString() })
        .where('url', '=', url)
        .execute(),
  };
}

describeEachDatabase('hostile upstreams: refused before parsing', (kind) => {
  const t = useTestApp(kind);
  const api = hostileApi(t);
  const upstream = useUpstream();

  it.each([
    ['a YAML profile nested 4,500 deep in flow brackets (9 KB)', () => deepYaml(4_500)],
    ['a YAML profile nested 100 deep in block indentation', () => deepBlockYaml(100)],
    ['a sing-box profile nested 4,500 deep', () => deepJson(4_500)],
    ['a YAML profile with more than 1,000 merge keys', () => mergeBomb(20_000)],
    ['a billion-laughs YAML profile (90 aliases expanding to 10^9 nodes)', laughs],
  ])(
    'records %s as upstream_unparseable',
    async (_label, body) => {
      const text = body();
      expect(text.length).toBeLessThanOrEqual(INLINE_MAX_BYTES);
      const { token, source } = await api.create(upstream.current.add(text));
      expect(source).toMatchObject({ last_error: 'upstream_unparseable', configs_count: 0 });
      expect((await t.call('GET', `/sub/${token}/plain`)).body).toBe('');
      await api.alive();
    },
    WORKER_TIMEOUT_MS,
  );

  it.each([
    ['a YAML profile nested 33,000 deep (66 KB)', () => deepYaml(33_000)],
    ['a YAML profile just over 64 KiB with more than 1,000 merge keys', () => mergeBomb(INLINE_MAX_BYTES + 1)],
  ])(
    'records %s, parsed on the real worker, as upstream_unparseable',
    async (_label, body) => {
      const text = body();
      expect(text.length).toBeGreaterThan(INLINE_MAX_BYTES);
      const { source } = await api.create(upstream.current.add(text));
      expect(source).toMatchObject({ last_error: 'upstream_unparseable', configs_count: 0 });
      await api.alive();
    },
    WORKER_TIMEOUT_MS,
  );

  it(
    'still reads a profile that merges one anchored map into each of a few proxies',
    async () => {
      const body = `base: &base {type: ss, server: a.example.com, port: 8388, cipher: aes-128-gcm, password: p}\nproxies:\n  - {<<: *base, name: one}\n  - {<<: *base, name: two, port: 8389}\n`;
      const { source } = await api.create(upstream.current.add(body));
      expect(source).toMatchObject({ last_error: null, configs_count: 2 });
    },
    WORKER_TIMEOUT_MS,
  );
});

describeEachDatabase('hostile upstreams: the refresher backs an unparseable URL off', (kind) => {
  const t = useTestApp(kind);
  const api = hostileApi(t);
  const upstream = useUpstream();

  it(
    'does not fetch it on the next passes, nor after a restart, then doubles the pause; a good body ends it',
    { timeout: WORKER_TIMEOUT_MS },
    async () => {
      const url = upstream.current.add(deepYaml(4_500));
      await api.create(url);
      const first = await api.row(url);
      expect(first).toMatchObject({ last_error: 'upstream_unparseable', backoff_count: 1 });
      expect(Date.parse(first.backoff_until ?? '') - Date.parse(first.last_attempt_at ?? '')).toBe(15 * MINUTE_MS);

      await api.makeDue(url);
      await t.context.external.refreshDue(900, 60);
      await t.context.external.refreshDue(900, 60);
      expect(upstream.current.hits(url)).toBe(1);
      expect(await t.context.external.countDue(900)).toBe(0);

      // A restarted service reads the back-off from the database.
      const client: UpstreamClient = createUpstreamClient(upstreamOptions(t.config));
      try {
        const restarted = new ExternalSources(t.database, client, t.context.changes, externalSourcesOptions(t.config));
        expect(await restarted.refreshDue(900, 60)).toBe(0);
        expect(upstream.current.hits(url)).toBe(1);

        await api.endBackoff(url);
        expect(await restarted.refreshDue(900, 60)).toBe(1);
      } finally {
        await client.close();
      }
      expect(upstream.current.hits(url)).toBe(2);
      const second = await api.row(url);
      expect(second).toMatchObject({ last_error: 'upstream_unparseable', backoff_count: 2 });
      expect(Date.parse(second.backoff_until ?? '') - Date.parse(second.last_attempt_at ?? '')).toBe(30 * MINUTE_MS);

      const lines = upstreamLines(3);
      upstream.current.set(url, lines.join('\n'));
      await api.endBackoff(url);
      await api.makeDue(url);
      await t.context.external.refreshDue(900, 60);
      expect(await api.row(url)).toMatchObject({
        last_error: null,
        configs_count: 3,
        backoff_count: 0,
        backoff_until: null,
      });
    },
  );

  it('caps the pause at 24 hours', { timeout: WORKER_TIMEOUT_MS }, async () => {
    const url = upstream.current.add(deepJson(200));
    await api.create(url);
    for (let i = 0; i < 8; i++) {
      await api.endBackoff(url);
      await api.makeDue(url);
      await t.context.external.refreshDue(900, 60);
    }
    const row = await api.row(url);
    expect(row.backoff_count).toBe(9);
    expect(Date.parse(row.backoff_until ?? '') - Date.parse(row.last_attempt_at ?? '')).toBe(24 * 60 * MINUTE_MS);
  });

  it('leaves other failures to the usual interval', async () => {
    const url = upstream.current.add((_req, res) => res.writeHead(503).end('down'));
    await api.create(url);
    expect(await api.row(url)).toMatchObject({ backoff_count: 0, backoff_until: null });
    await api.makeDue(url);
    await t.context.external.refreshDue(900, 60);
    expect(upstream.current.hits(url)).toBe(2);
  });
});

describeEachDatabase('hostile upstreams: a failing parser worker', (kind) => {
  const t = useTestApp(
    kind,
    {},
    {
      overrides: {
        upstream: createUpstreamClient({
          timeoutMs: 5_000,
          maxBytes: 5 * 1024 * 1024,
          maxRedirects: 3,
          userAgent: 'subweave-test',
          allowPrivate: true,
          maxLines: 2_000,
          parserWorkerUrl: new URL('../support/failing-parse-worker.ts?mode=throw', import.meta.url),
        }),
      },
    },
  );
  const api = hostileApi(t);
  const upstream = useUpstream();

  it(
    'records a large body the worker fails on as upstream_unparseable, without parsing it inline',
    async () => {
      const lines = largeLines();
      const { source } = await api.create(upstream.current.add(lines.join('\n')));
      // Parsed inline, these lines would have been stored.
      expect(source).toMatchObject({ last_error: 'upstream_unparseable', configs_count: 0 });
      await api.alive();
    },
    WORKER_TIMEOUT_MS,
  );

  it('still parses a body within the inline size on the event loop', async () => {
    const lines = upstreamLines(5);
    const { source } = await api.create(upstream.current.add(lines.join('\n')));
    expect(source).toMatchObject({ last_error: null, configs_count: 5 });
  });
});
