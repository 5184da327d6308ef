// The render cache's memory budget: least recently used entries go first, and a hot entry stays without being moved on
// every read; the kept token of a cached link.
import { expect, it } from 'vitest';
import { RenderCache } from '../../src/modules/resolve/render-cache.js';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { subsApi } from '../support/factories.js';

describeEachDatabase('render cache budget', (kind) => {
  const t = useTestApp(kind, { MAX_SUBSCRIPTIONS_PER_USER: '20' });

  it('evicts the least recently used entries and keeps the ones read since', async () => {
    const { userToken } = await subsApi(t).create([]);
    const tokens: string[] = [];
    for (let i = 0; i < 14; i++) {
      // Same-length sources, so every entry weighs the same.
      const sub = await subsApi(t).create(
        [`trojan://pw@host-${String(i).padStart(2, '0')}.example.com:443`],
        userToken,
      );
      tokens.push(sub.token);
    }
    const probe = new RenderCache(t.database.db, t.config, t.context.changes, t.context.formats);
    await probe.get(tokens[0]!);
    const entryBytes = probe.byteSize;

    // Room for eight entries (and a half).
    const cache = new RenderCache(t.database.db, t.config, t.context.changes, t.context.formats, entryBytes * 8.5);
    for (const token of tokens.slice(0, 8)) await cache.get(token);
    expect(cache.size).toBe(8);

    // Entry 0 is the oldest; reading it makes entry 1 the oldest, so the ninth entry evicts 1.
    expect(cache.peek(tokens[0]!)).toBeDefined();
    await cache.get(tokens[8]!);
    expect(cache.has(tokens[0]!)).toBe(true);
    expect(cache.has(tokens[1]!)).toBe(false);

    // Entry 0 is read before each new entry: it is never the oldest, whether or not a read moved it.
    for (const token of tokens.slice(9)) {
      expect(cache.peek(tokens[0]!)).toBeDefined();
      await cache.get(token);
    }
    expect(cache.size).toBe(8);
    expect(cache.has(tokens[0]!)).toBe(true);
    // The rest are the seven most recent, in order: 2-6 went first.
    for (const token of tokens.slice(2, 7)) expect(cache.has(token)).toBe(false);
    for (const token of tokens.slice(7)) expect(cache.has(token)).toBe(true);
    expect(cache.hits).toBe(6);
  });

  it('gives the kept token of a cached link, without counting a read, and nothing for a link not cached', async () => {
    const sub = await subsApi(t).create(['trojan://pw@kept.example.com:443']);
    const cache = new RenderCache(t.database.db, t.config, t.context.changes, t.context.formats);
    // A token cut from a request's URL, as the lane's is.
    const fromUrl = /^\/sub\/([\w-]+)/.exec(`/sub/${sub.token}/base64`)![1]!;
    expect(cache.keptToken(fromUrl)).toBeUndefined();
    await cache.get(sub.token);
    expect(cache.keptToken(fromUrl)).toBe(sub.token);
    expect(cache.keptToken(`${sub.token}x`)).toBeUndefined();
    expect(cache.hits).toBe(0);
  });
});
