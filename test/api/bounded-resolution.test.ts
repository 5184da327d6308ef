// Resolution cost is bounded, no size depends on driver limits, concurrent writes cannot break graph rules (docs/api.md, Resolution; docs/architecture.md): structural bounds on graphs seeded in bulk.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, TEST_BASE_URL } from '../support/harness.js';
import { internalRef, unique } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import {
  type DiamondGraph,
  distinctLines,
  seedCache,
  seedDiamondGraph,
  seedSources,
  seedSubscriptions,
} from '../support/graph-seed.js';
import { findServable, resolveFromDatabase } from '../../src/modules/resolve/resolve.store.js';
import { LINES_READ_FACTOR } from '../../src/modules/resolve/resolver.js';

const CAP = 200;
const SQLITE_MAX_VARIABLES = 32_766;

/** Index of the first URL a depth-first walk reads: the first URL of the first subscription of the deepest level. */
const firstReadUrl = (graph: DiamondGraph): number =>
  graph.urls.findIndex((url) => url.includes(`/${graph.levels[graph.levels.length - 1]?.[0] ?? ''}/`));

describeEachDatabase('bounded resolution', (kind) => {
  const t = useTestApp(kind, { MAX_RESOLVED_CONFIGS: String(CAP), MAX_SUBSCRIPTIONS_PER_USER: '50' });
  const plainLines = async (token: string): Promise<string[]> => {
    const res = await t.call('GET', `/api/v1/sub/${token}?format=plain`);
    expect(res.statusCode, res.body).toBe(200);
    return res.body === '' ? [] : res.body.split('\n');
  };
  const walk = async (token: string, maxResolvedConfigs = CAP) => {
    const root = await findServable(t.database.db, token);
    expect(root).toBeDefined();
    return resolveFromDatabase(t.database.db, root as NonNullable<typeof root>, {
      maxNestingDepth: 3,
      maxResolvedConfigs,
    });
  };
  const owners = async (count: number) =>
    Promise.all(Array.from({ length: count }, async () => (await t.newUser()).userId));
  const diamond = async (label: string) =>
    seedDiamondGraph(t.database.db, {
      owners: await owners(4),
      width: 3,
      depth: 3,
      sourcesPerSubscription: 150,
      urlBase: `https://${label}.example.org`,
    });

  it('the heaviest graph: stops at the cap after one content, and expands each (subscription, depth) once', async () => {
    const graph = await diamond(unique('heavy'));
    // Every URL at its stored maximum of distinct lines.
    await seedCache(t.database.db, graph.urls, (_url, i) => distinctLines(`u${i}`, CAP));
    expect(graph.urls.length).toBe(147 + 3 * 147 + 3 * 147 + 3 * 150);

    const served = await plainLines(graph.root);
    // Depth-first: root -> first of level 1 -> first of level 2 -> first of level 3, whose first URL fills the cap.
    expect(served).toEqual(distinctLines(`u${firstReadUrl(graph)}`, CAP));
    const capped = await walk(graph.root);
    expect(capped.stats).toEqual({ expansions: 4, contentsRead: 1, linesRead: CAP });

    // Without the cap the walk reads the whole graph: 10 (subscription, depth) pairs, not its 40 paths, and each
    // URL once although the diamonds reach the deepest URLs through 27 paths.
    const whole = await walk(graph.root, 10_000_000);
    expect(whole.stats).toEqual({
      expansions: 10,
      contentsRead: graph.urls.length,
      linesRead: graph.urls.length * CAP,
    });
    expect(whole.lines).toHaveLength(graph.urls.length * CAP);
  }, 120_000);

  it('identical contents are read once; distinct contents of duplicate lines stop at the read budget', async () => {
    const same = await diamond(unique('same'));
    const lines = distinctLines(unique('dup'), 150);
    await seedCache(t.database.db, same.urls, () => lines);
    expect(await plainLines(same.root)).toEqual(lines);
    expect((await walk(same.root)).stats).toEqual({ expansions: 10, contentsRead: 1, linesRead: 150 });

    // The adversarial case: every URL holds the same 150 configs with other remarks, so the cap is never reached.
    const remarks = await diamond(unique('remarks'));
    const identities = unique('adv');
    await seedCache(t.database.db, remarks.urls, (_url, i) => distinctLines(identities, 150, `remark${i}`));
    const result = await walk(remarks.root);
    expect(result.lines).toEqual(distinctLines(identities, 150, `remark${firstReadUrl(remarks)}`));
    expect(result.stats.linesRead).toBe(CAP * LINES_READ_FACTOR);
    expect(result.stats.contentsRead).toBe(Math.ceil((CAP * LINES_READ_FACTOR) / 150));
    expect(result.stats.contentsRead).toBeLessThan(remarks.urls.length);
  }, 120_000);

  it(`works with more than ${SQLITE_MAX_VARIABLES} references and URLs in one subscription`, async () => {
    const n = SQLITE_MAX_VARIABLES + 500;
    const owner = await t.newUser();
    const [mid] = await seedSubscriptions(t.database.db, owner.userId, 1);
    const leaves = await seedSubscriptions(t.database.db, owner.userId, n);
    const urls = Array.from({ length: n }, (_, i) => `https://many.example.org/${unique('u')}/${i}`);
    await seedSources(t.database.db, mid as string, [
      ...urls.map((data) => ({ type: 'external_url' as const, data })),
      ...leaves.map((data) => ({ type: 'internal_token' as const, data })),
    ]);
    await seedCache(t.database.db, urls, (_url, i) => (i % 1000 === 0 ? distinctLines(`m${i}`, 1) : []));
    const owning = await t.newUser();
    const holder = await t.call('POST', '/api/v1/subs', {
      token: owning.token,
      body: { name: unique('top'), sources: [] },
    });
    expect(holder.statusCode, holder.body).toBe(201);
    const holderToken = holder.json<{ token: string }>().token;

    // The cycle/depth check walks every leaf, the resolution asks for every URL's content key, the view for every state.
    const added = await t.call('POST', `/api/v1/subs/${holderToken}/sources`, {
      token: owning.token,
      body: { sources: [internalRef(mid as string)] },
    });
    expect(added.statusCode, added.body).toBe(200);
    const served = await plainLines(holderToken);
    expect(served).toEqual(Array.from({ length: Math.ceil(n / 1000) }, (_, k) => distinctLines(`m${k * 1000}`, 1)[0]));
    expect(await walk(mid as string)).toMatchObject({ stats: { expansions: 1 + n } });
    const view = await t.call('GET', `/api/v1/subs/${mid}`, { token: owner.token });
    expect(view.statusCode).toBe(200);
    expect(view.json<{ sources: unknown[]; sources_count: number }>()).toMatchObject({ sources_count: served.length });
    expect(view.json<{ sources: unknown[] }>().sources).toHaveLength(2 * n);
    // A reference back to the holder from below is still found as a cycle through the wide level.
    const leafOwnerRef = await t.call('POST', `/api/v1/subs/${holderToken}/sources`, {
      token: owning.token,
      body: { sources: [`${TEST_BASE_URL}/api/v1/sub/${leaves[n - 1] as string}`] },
    });
    expect(leafOwnerRef.statusCode, leafOwnerRef.body).toBe(200);
  }, 180_000);

  it('two racing adds (A->B and B->A) never leave a cycle (20 trials)', async () => {
    const user = await t.newUser();
    for (let trial = 0; trial < 20; trial++) {
      const create = async () => {
        const res = await t.call('POST', '/api/v1/subs', {
          token: user.token,
          body: { name: unique('race'), sources: [] },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ token: string }>().token;
      };
      const [a, b] = [await create(), await create()];
      const add = (holder: string, target: string) =>
        t.call('POST', `/api/v1/subs/${holder}/sources`, {
          token: user.token,
          body: { sources: [internalRef(target)] },
        });
      const results = await Promise.all([add(a, b), add(b, a)]);
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses, results.map((r) => r.body).join('\n')).toEqual([200, 400]);
      expectError(results.find((r) => r.statusCode === 400) as (typeof results)[number], 400, 'circular_reference');
      const edges = await t.database.db
        .selectFrom('sources')
        .select(['subscription_token', 'ref_token'])
        .where('subscription_token', 'in', [a, b])
        .where('source_type', '=', 'internal_token')
        .execute();
      expect(edges).toHaveLength(1);
      await Promise.all([a, b].map((token) => t.call('DELETE', `/api/v1/subs/${token}`, { token: user.token })));
    }
  }, 120_000);
});
