// A cold GET renders from the parse results stored with the lines: no line is parsed again, and the bytes are those parsing would give.
import { expect, it, vi } from 'vitest';
import { FORMATS } from '../../src/formats/formats.js';
import { uriReadings } from '../../src/formats/share-uri/index.js';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import {
  hysteria2Uri,
  internalRef,
  ssUri,
  subsApi,
  trojanUri,
  vlessUri,
  vmessJsonUri,
  wireguardUri,
} from '../support/factories.js';
import { upstreamLines, useUpstream } from '../support/upstream-server.js';

describeEachDatabase('stored parse results on the cold path', (kind) => {
  const t = useTestApp(kind);
  const upstream = useUpstream();
  const api = subsApi(t);

  /** Drops the cached link, as any change to the subscription does. */
  const change = (token: string) =>
    t.context.changes.write(async (_trx, record) => record({ kind: 'subscription', token }));

  /** The body of a cold GET in every format, and the share-URI readings those GETs took in all. */
  const coldBodies = async (token: string) => {
    const bodies: Record<string, string> = {};
    let readings = 0;
    for (const format of FORMATS) {
      await change(token);
      const before = uriReadings.count;
      const res = await t.call('GET', `/api/v1/sub/${token}/${format}`);
      readings += uriReadings.count - before;
      expect(res.statusCode, res.body).toBe(200);
      bodies[format] = res.body;
    }
    return { bodies, readings };
  };

  /** A served subscription of configs of several kinds, a reference and an upstream (with a duplicate line). */
  const seed = async () => {
    const shared = vlessUri();
    const nested = await api.create([vlessUri(), `${vmessJsonUri('named in JSON')}`, `${trojanUri()}#Trojan ✓`]);
    const feed = [...upstreamLines(4), `${shared}#from the feed`, 'juicity://u:p@j.example.com:443'];
    const url = upstream.current.add(feed.join('\n'));
    const main = await api.create(
      [`${shared}#Mine`, ssUri(), hysteria2Uri(), wireguardUri(), vmessJsonUri(), internalRef(nested.token), url],
      nested.userToken,
    );
    return { main, nested, url, tokens: [main.token, nested.token] };
  };

  it('a cold GET in any format reads no line: configs and upstream lines are stored parsed', async () => {
    const { main } = await seed();
    const { bodies, readings } = await coldBodies(main.token);
    expect(readings).toBe(0);
    expect(bodies['plain']?.split('\n')).toHaveLength(13);
    expect(bodies['mihomo']).toContain('Trojan ✓');
  });

  it('rows stored without parse results answer the same bytes, and are read once until stored', async () => {
    const { main, tokens } = await seed();
    const stored = await coldBodies(main.token);
    const cleared = { line: null, parsed: null, parsed_comment: null, parsed_version: null };
    await t.database.db.updateTable('sources').set(cleared).where('subscription_token', 'in', tokens).execute();
    await t.database.db.updateTable('external_cache').set({ parsed: null, parsed_hash: null }).execute();

    const lazy = await coldBodies(main.token);
    expect(lazy.bodies).toEqual(stored.bodies);
    expect(lazy.readings).toBeGreaterThan(0);
    // The resolution that read them stores the configs' forms again (not awaited by the answer).
    await vi.waitFor(async () => {
      const rows = await t.database.db
        .selectFrom('sources')
        .select('id')
        .where('subscription_token', 'in', tokens)
        .where('source_type', '=', 'config')
        .where('parsed_version', 'is', null)
        .execute();
      expect(rows).toEqual([]);
    });
    // The upstream's lines get theirs with the next fetch.
    const refreshed = await t.call('POST', `/api/v1/subs/${main.token}/refresh`, { token: main.userToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const again = await coldBodies(main.token);
    expect(again).toEqual({ bodies: stored.bodies, readings: 0 });
  });

  it('a comment or content changed by an instance that stores no parse results is served as changed', async () => {
    const { main, url } = await seed();
    await coldBodies(main.token);
    const [own] = await api.storedRows(main.token);
    await t.database.db
      .updateTable('sources')
      .set({ comment: 'set by an older instance' })
      .where('subscription_token', '=', main.token)
      .where('id', '=', own?.id as string)
      .execute();
    const fresh = upstreamLines(1)[0] as string;
    await t.database.db
      .updateTable('external_cache')
      .set({ content: fresh, content_hash: 'another', configs_count: 1 })
      .where('url', '=', url)
      .execute();
    const { bodies } = await coldBodies(main.token);
    const lines = bodies['plain']?.split('\n') ?? [];
    expect(lines[0]).toMatch(/#set%20by%20an%20older%20instance$/);
    expect(lines).toContain(fresh);
    expect(bodies['mihomo']).toContain('set by an older instance');
  });

  it('a comment changed through the API is stored parsed with it', async () => {
    const { main } = await seed();
    const [own] = await api.storedRows(main.token);
    const res = await api.config(main.userToken, main.token, { config_id: own?.id, comment: 'Renamed ✓' });
    expect(res.statusCode, res.body).toBe(204);
    const { bodies, readings } = await coldBodies(main.token);
    expect(readings).toBe(0);
    expect(bodies['plain']?.split('\n')[0]).toMatch(/#Renamed%20%E2%9C%93$/);
    expect(bodies['sing-box']).toContain('Renamed ✓');
  });
});
