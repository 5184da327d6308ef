// HTTP tests of source input: classification, ids, comments, add/replace/remove, internal references and SSRF refusal.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase, TEST_BASE_URL, useTestApp } from '../support/harness.js';
import {
  byId,
  externalUrl,
  hy2Uri,
  hysteria2Uri,
  internalRef,
  sha32,
  socks5Uri,
  ssUri,
  subsApi,
  trojanUri,
  tuicUri,
  vlessUri,
  vmessJsonUri,
  wireguardUri,
  type Source,
} from '../support/factories.js';
import { expectError } from '../support/expect.js';

const ids = (sources: Source[]): string[] => sources.map((s) => s.id);
const indexes = (sources: Source[]): number[] => sources.map((s) => s.order_index);

describeEachDatabase('sources: classification', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it('classifies proxy URIs of every kind of scheme as config, keeping the URI as data', async () => {
    const uris = [
      vlessUri(),
      vmessJsonUri(),
      trojanUri(),
      ssUri(),
      hysteria2Uri(),
      hy2Uri(),
      tuicUri(),
      wireguardUri(),
      socks5Uri(),
    ];
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, uris);
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(sources.map((s) => [s.source_type, s.data, s.comment])).toEqual(uris.map((u) => ['config', u, null]));
  });

  it('classifies http and https URLs as external_url', async () => {
    const urls = [externalUrl(), externalUrl().replace('https://', 'http://')];
    const sub = await api.create(urls);
    expect(sub.sources.map((s) => [s.source_type, s.data])).toEqual(urls.map((u) => ['external_url', u]));
  });

  it('classifies links to this service as internal_token and returns the canonical link', async () => {
    const target1 = await api.create();
    const target2 = await api.create();
    const holder = await api.create([
      `${TEST_BASE_URL}/api/v1/sub/${target1.token}`,
      `http://SUB.TEST/sub/${target2.token}`,
    ]);
    expect(holder.sources.map((s) => [s.source_type, s.data])).toEqual([
      ['internal_token', `http://sub.test/api/v1/sub/${target1.token}`],
      ['internal_token', `http://sub.test/api/v1/sub/${target2.token}`],
    ]);
  });

  it.each([
    ['garbage text', 'hello world'],
    ['an ftp URL', 'ftp://x'],
    ['a vless URI without a UUID user', 'vless://not-a-uuid@h:1'],
    ['an unknown scheme', 'gopher://example.com:70'],
    ['a vless URI without a port', 'vless://3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13@example.com'],
    ['a whitespace-only string', '   '],
    ['an internal link without a token', `${TEST_BASE_URL}/api/v1/sub/`],
  ])('refuses %s with 400 invalid_source naming the item index, storing nothing', async (_label, bad) => {
    const sub = await api.create([vlessUri()]);
    const before = await api.storedRows(sub.token);
    const res = await api.add(sub.userToken, sub.token, [vlessUri(), { data: vlessUri() }, bad, vlessUri()]);
    const { details } = expectError(res, 400, 'invalid_source');
    expect(details?.['index']).toBe(2);
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it.each(['https://user:pw@example.com/s', 'https://user@example.com/s'])(
    'refuses %s (credentials) as invalid_url and stores nothing',
    async (url) => {
      const sub = await api.create();
      const res = await api.add(sub.userToken, sub.token, [vlessUri(), url]);
      const { details } = expectError(res, 400, 'invalid_url');
      expect(details?.['index']).toBe(1);
      expect(await api.storedRows(sub.token)).toEqual([]);
    },
  );

  it('creates no subscription when one of its initial sources is invalid', async () => {
    const { token } = await t.newUser();
    const res = await t.call('POST', '/api/v1/subs', {
      token,
      body: { name: 'broken', sources: [vlessUri(), 'ftp://x'] },
    });
    expect(expectError(res, 400, 'invalid_source').details?.['index']).toBe(1);
    const list = await t.call('GET', '/api/v1/subs', { token });
    expect(list.json()).toEqual([]);
  });
});

describeEachDatabase('sources: ids', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it('derives a config id from the trimmed URI without its fragment', async () => {
    const uri = vlessUri();
    const sub = await api.create([`  ${uri}#Some%20Name  `]);
    const [source] = sub.sources;
    expect(source?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(source?.id).toBe(sha32(uri));
  });

  it('derives an external URL id from the URL without its fragment', async () => {
    const url = externalUrl();
    const sub = await api.create([`${url}#anchor`]);
    expect(sub.sources[0]?.id).toBe(sha32(url));
  });

  it('gives the same config the same id in two subscriptions, whatever its comment', async () => {
    const uri = vlessUri();
    const a = await api.create([`${uri}#One`]);
    const b = await api.create([`${uri}#Two`]);
    expect(a.sources[0]?.id).toBe(sha32(uri));
    expect(b.sources[0]?.id).toBe(a.sources[0]?.id);
    expect([a.sources[0]?.comment, b.sources[0]?.comment]).toEqual(['One', 'Two']);
  });

  it("derives an internal reference id from 'internal:' + token, equal for both link forms", async () => {
    const target = await api.create();
    const holder = await api.create();
    const res = await api.add(holder.userToken, holder.token, [
      `http://SUB.TEST/sub/${target.token}`,
      internalRef(target.token),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(ids(sources)).toEqual([sha32(`internal:${target.token}`)]);
  });
});

describeEachDatabase('sources: comments in input', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it('decodes a percent-encoded comment and re-encodes it in data', async () => {
    const uri = vlessUri();
    const sub = await api.create([`${uri}#My%20Server`]);
    expect(sub.sources[0]).toMatchObject({ comment: 'My Server', data: `${uri}#My%20Server`, id: sha32(uri) });
  });

  it('keeps unicode comments and encodes them as RFC 3986 UTF-8 (space %20, plus %2B)', async () => {
    const uri = trojanUri();
    const sub = await api.create([`${uri}#Москва a+b`]);
    expect(sub.sources[0]?.comment).toBe('Москва a+b');
    expect(sub.sources[0]?.data).toBe(`${uri}#%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0%20a%2Bb`);
  });

  it('takes everything after the first # as the comment', async () => {
    const uri = vlessUri();
    const sub = await api.create([`${uri}#one#two`]);
    expect(sub.sources[0]).toMatchObject({ id: sha32(uri), comment: 'one#two', data: `${uri}#one%23two` });
  });

  it('round-trips returned data through PUT: same ids, comments and data', async () => {
    const uris = [vlessUri(), ssUri(), trojanUri()];
    const sub = await api.create([`${uris[0]}#My%20Server`, `${uris[1]}#🇳🇱 Amsterdam`, uris[2]]);
    const other = await api.create([vlessUri()], sub.userToken);
    const res = await api.replace(
      other.userToken,
      other.token,
      sub.sources.map((s) => s.data),
    );
    expect(res.statusCode, res.body).toBe(200);
    const replaced = res.json<{ sources: Source[] }>().sources;
    const shape = (list: Source[]) => list.map((s) => [s.id, s.data, s.comment, s.source_type]);
    expect(shape(replaced)).toEqual(shape(sub.sources));
    expect(replaced.map((s) => s.comment)).toEqual(['My Server', '🇳🇱 Amsterdam', null]);
  });

  it('counts the comment limit in code points: 256 emoji pass, 257 characters fail', async () => {
    const sub = await api.create();
    const ok = await api.add(sub.userToken, sub.token, [`${vlessUri()}#${'😀'.repeat(256)}`]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ sources: Source[] }>().sources[0]?.comment).toBe('😀'.repeat(256));

    const before = await api.storedRows(sub.token);
    const tooLong = await api.add(sub.userToken, sub.token, [vlessUri(), `${vlessUri()}#${'x'.repeat(257)}`]);
    expectError(tooLong, 400, 'validation_failed');
    const emoji = await api.add(sub.userToken, sub.token, [`${vlessUri()}#${'😀'.repeat(257)}`]);
    expectError(emoji, 400, 'validation_failed');
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it('drops a fragment on an external URL instead of storing a comment', async () => {
    const url = externalUrl();
    const sub = await api.create([`${url}#Provider%20Name`]);
    expect(sub.sources[0]).toMatchObject({ source_type: 'external_url', data: url, comment: null, id: sha32(url) });
  });
});

describeEachDatabase('sources: add', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it('accepts plain strings and SourceCreate objects mixed, with defaults and explicit values', async () => {
    const sub = await api.create();
    const uris = [vlessUri(), vlessUri(), vlessUri(), vlessUri()];
    const res = await api.add(sub.userToken, sub.token, [
      uris[0],
      { data: uris[1] },
      { data: uris[2], is_hidden: true, max_depth: 0 },
      { data: uris[3], is_hidden: null, max_depth: null },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(sources.map((s) => [s.data, s.is_hidden, s.max_depth, s.order_index])).toEqual([
      [uris[0], false, 3, 0],
      [uris[1], false, 3, 1],
      [uris[2], true, 0, 2],
      [uris[3], false, 3, 3],
    ]);
    expect(await api.get(sub.userToken, sub.token)).toMatchObject({ sources });
  });

  it('stores a source of the longest allowed data, random enough not to compress (no index holds the data)', async () => {
    const sub = await api.create();
    const host = '@long.example.net:443';
    const password = randomBytes(8192)
      .toString('hex')
      .slice(0, 16_384 - 'trojan://'.length - host.length);
    const uri = `trojan://${password}${host}`;
    expect(uri).toHaveLength(16_384);
    const res = await api.add(sub.userToken, sub.token, [uri]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ sources: Source[] }>().sources.map((s) => s.data)).toEqual([uri]);
  });

  it.each([
    ['max_depth 4', { max_depth: 4 }],
    ['max_depth -1', { max_depth: -1 }],
    ['max_depth 1.5', { max_depth: 1.5 }],
    ['is_hidden as a string', { is_hidden: 'yes' }],
    ['empty data', { data: '' }],
    ['data that is not a string', { data: 42 }],
  ])('refuses %s with 400 validation_failed', async (_label, extra) => {
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, [vlessUri(), { data: vlessUri(), ...extra }]);
    expectError(res, 400, 'validation_failed');
    expect(await api.storedRows(sub.token)).toEqual([]);
  });

  it('continues order_index from max+1, also after a removal left a gap', async () => {
    const sub = await api.create([vlessUri(), vlessUri(), vlessUri()]);
    const middle = sub.sources[1] as Source;
    expect((await api.remove(sub.userToken, sub.token, [middle.id])).statusCode).toBe(200);
    const res = await api.add(sub.userToken, sub.token, [vlessUri(), vlessUri()]);
    expect(res.statusCode, res.body).toBe(200);
    expect(indexes(res.json<{ sources: Source[] }>().sources)).toEqual([0, 2, 3, 4]);
  });

  it('keeps the first occurrence of a duplicate inside one request, with its comment and flags', async () => {
    const uri = vlessUri();
    const other = vlessUri();
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, [
      `${uri}#First`,
      other,
      { data: `${uri}#Second`, is_hidden: true, max_depth: 1 },
      `  ${uri}  `,
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(sources.map((s) => [s.id, s.comment, s.is_hidden, s.max_depth, s.order_index])).toEqual([
      [sha32(uri), 'First', false, 3, 0],
      [sha32(other), null, false, 3, 1],
    ]);
  });

  it('drops items already in the subscription silently and leaves the existing source unchanged', async () => {
    const uri = vlessUri();
    const sub = await api.create([{ data: `${uri}#Old`, is_hidden: true, max_depth: 1 }, vlessUri()]);
    const existing = sub.sources[0] as Source;
    const fresh = vlessUri();
    const res = await api.add(sub.userToken, sub.token, [
      `${uri}#New`,
      { data: uri, is_hidden: false, max_depth: 3 },
      fresh,
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(sources).toHaveLength(3);
    expect(byId(sources, existing.id)).toEqual(existing);
    expect(byId(sources, sha32(fresh)).order_index).toBe(2);
  });

  it('answers 200 and changes nothing when every item already exists', async () => {
    const uri = vlessUri();
    const sub = await api.create([`${uri}#Keep`]);
    const before = await api.storedRows(sub.token);
    const res = await api.add(sub.userToken, sub.token, [`${uri}#Other`]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it('refuses an empty list with 400 validation_failed', async () => {
    const sub = await api.create();
    expectError(await api.add(sub.userToken, sub.token, []), 400, 'validation_failed');
  });

  it('accepts 150 items and refuses 151 with 413 too_many_sources, adding nothing', async () => {
    const sub = await api.create();
    const many = Array.from({ length: 151 }, () => vlessUri());
    expectError(await api.add(sub.userToken, sub.token, many), 413, 'too_many_sources');
    // The 150-item cap counts items as sent, even when duplicates would leave fewer distinct sources.
    const withDuplicates = [...many.slice(0, 149), many[0], many[1]];
    expectError(await api.add(sub.userToken, sub.token, withDuplicates), 413, 'too_many_sources');
    expect(await api.storedRows(sub.token)).toEqual([]);

    const res = await api.add(sub.userToken, sub.token, many.slice(0, 150));
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(indexes(sources)).toEqual(Array.from({ length: 150 }, (_, i) => i));
  });

  it('answers 404 subscription_not_found for an unknown subscription, 403 for another user', async () => {
    const { token } = await t.newUser();
    expectError(
      await api.add(token, 'NoSuchSubscriptionToken0000000000000000000', [vlessUri()]),
      404,
      'subscription_not_found',
    );
    const foreign = await api.create();
    expectError(await api.add(token, foreign.token, [vlessUri()]), 403, 'forbidden');
    expect(await api.storedRows(foreign.token)).toEqual([]);
  });
});

describeEachDatabase('sources: MAX_SOURCES_PER_SUBSCRIPTION=5', (kind) => {
  const t = useTestApp(kind, { MAX_SOURCES_PER_SUBSCRIPTION: '5' });
  const api = subsApi(t);

  it('refuses an add whose result exceeds the limit with 413, adding nothing', async () => {
    const sub = await api.create([vlessUri(), vlessUri(), vlessUri()]);
    const before = await api.storedRows(sub.token);
    const { details } = expectError(
      await api.add(sub.userToken, sub.token, [vlessUri(), vlessUri(), vlessUri()]),
      413,
      'too_many_sources',
    );
    expect(details?.['max']).toBe(5);
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it('counts distinct new sources only: duplicates and existing items do not use up the limit', async () => {
    const sub = await api.create([vlessUri(), vlessUri(), vlessUri()]);
    const [a, b] = [vlessUri(), vlessUri()];
    const res = await api.add(sub.userToken, sub.token, [a, `${a}#again`, sub.sources[0]?.data, b, b]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ sources: Source[] }>().sources).toHaveLength(5);
  });

  it('refuses create and replace with more distinct sources than the limit (400), keeping the old list', async () => {
    const six = Array.from({ length: 6 }, () => vlessUri());
    const { token } = await t.newUser();
    const create = await t.call('POST', '/api/v1/subs', { token, body: { name: 'six', sources: six } });
    expectError(create, 400, 'validation_failed');

    const sub = await api.create([six[0], six[1]], token);
    const before = await api.storedRows(sub.token);
    expectError(await api.replace(token, sub.token, six), 400, 'validation_failed');
    expect(await api.storedRows(sub.token)).toEqual(before);

    const fiveDistinct = await api.replace(token, sub.token, [...six.slice(0, 5), six[0]]);
    expect(fiveDistinct.statusCode, fiveDistinct.body).toBe(200);
    expect(ids(fiveDistinct.json<{ sources: Source[] }>().sources)).toEqual(
      six.slice(0, 5).map((u) => sha32(u as string)),
    );
  });
});

describeEachDatabase('sources: replace', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it('replaces the list and renumbers from 0, taking the new items as given', async () => {
    const [a, b, c, d] = [vlessUri(), vlessUri(), vlessUri(), vlessUri()];
    const sub = await api.create([`${a}#A`, b]);
    await api.add(sub.userToken, sub.token, [c]);
    const res = await api.replace(sub.userToken, sub.token, [{ data: c, is_hidden: true }, `${d}#D`, a]);
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(sources.map((s) => [s.id, s.order_index, s.comment, s.is_hidden])).toEqual([
      [sha32(c), 0, null, true],
      [sha32(d), 1, 'D', false],
      [sha32(a), 2, null, false],
    ]);
    expect((await api.get(sub.userToken, sub.token)).sources).toEqual(sources);
  });

  it('accepts an empty list, leaving no sources', async () => {
    const sub = await api.create([vlessUri(), externalUrl()]);
    const res = await api.replace(sub.userToken, sub.token, []);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ sources: Source[] }>().sources).toEqual([]);
    expect(await api.storedRows(sub.token)).toEqual([]);
  });

  it('refuses 151 items with 400 validation_failed', async () => {
    const sub = await api.create([vlessUri()]);
    const before = await api.storedRows(sub.token);
    const res = await api.replace(
      sub.userToken,
      sub.token,
      Array.from({ length: 151 }, () => vlessUri()),
    );
    expectError(res, 400, 'validation_failed');
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it('is atomic: an invalid last item leaves the old list intact', async () => {
    const sub = await api.create([`${vlessUri()}#Old`, externalUrl()]);
    const before = await api.storedRows(sub.token);
    const res = await api.replace(sub.userToken, sub.token, [vlessUri(), vlessUri(), 'not a source']);
    expect(expectError(res, 400, 'invalid_source').details?.['index']).toBe(2);
    expect(await api.storedRows(sub.token)).toEqual(before);
    expect((await api.get(sub.userToken, sub.token)).sources).toEqual(sub.sources);
  });

  it('is atomic: a last item referencing a missing subscription leaves the old list intact', async () => {
    const sub = await api.create([vlessUri()]);
    const before = await api.storedRows(sub.token);
    const res = await api.replace(sub.userToken, sub.token, [
      vlessUri(),
      internalRef('MissingToken000000000000000000000000000000'),
    ]);
    expect(expectError(res, 400, 'invalid_source').details?.['index']).toBe(1);
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it('answers 404 for an unknown subscription and 403 for another user', async () => {
    const { token } = await t.newUser();
    expectError(await api.replace(token, 'unknown-token', []), 404, 'subscription_not_found');
    const foreign = await api.create([vlessUri()]);
    expectError(await api.replace(token, foreign.token, []), 403, 'forbidden');
    expect(await api.storedRows(foreign.token)).toHaveLength(1);
  });

  it('refuses an out-of-range max_depth on create and replace with 400 validation_failed', async () => {
    const { token } = await t.newUser();
    const create = await t.call('POST', '/api/v1/subs', {
      token,
      body: { name: 'depth', sources: [{ data: vlessUri(), max_depth: 4 }] },
    });
    expectError(create, 400, 'validation_failed');
    const sub = await api.create([vlessUri()], token);
    expectError(await api.replace(token, sub.token, [{ data: vlessUri(), max_depth: -1 }]), 400, 'validation_failed');
    expect(await api.storedRows(sub.token)).toHaveLength(1);
  });
});

describeEachDatabase('sources: remove', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it('removes the given sources without renumbering the rest', async () => {
    const sub = await api.create([vlessUri(), externalUrl(), vlessUri(), vlessUri()]);
    const [s0, s1, s2, s3] = sub.sources as [Source, Source, Source, Source];
    const res = await api.remove(sub.userToken, sub.token, [s1.id, s2.id]);
    expect(res.statusCode, res.body).toBe(200);
    const sources = res.json<{ sources: Source[] }>().sources;
    expect(sources.map((s) => [s.id, s.order_index])).toEqual([
      [s0.id, 0],
      [s3.id, 3],
    ]);
    expect(ids((await api.get(sub.userToken, sub.token)).sources)).toEqual([s0.id, s3.id]);
  });

  it('refuses an empty id list with 400', async () => {
    const sub = await api.create([vlessUri()]);
    expectError(await api.remove(sub.userToken, sub.token, []), 400, 'validation_failed');
    expect(await api.storedRows(sub.token)).toHaveLength(1);
  });

  it.each([
    ['numbers', [1, 2]],
    ['null', [null]],
    ['an object', [{ id: 'x' }]],
    ['not an array', 'abc'],
  ])('refuses ids that are %s with 400', async (_label, sourceIds) => {
    const sub = await api.create([vlessUri()]);
    expectError(await api.remove(sub.userToken, sub.token, sourceIds), 400, 'validation_failed');
    expect(await api.storedRows(sub.token)).toHaveLength(1);
  });

  it('refuses a request with one unknown id with 404 source_not_found listing it, removing nothing', async () => {
    const sub = await api.create([vlessUri(), vlessUri()]);
    const elsewhere = await api.create([vlessUri()]);
    const before = await api.storedRows(sub.token);
    const unknown = sha32('nothing-like-this');
    const foreignId = elsewhere.sources[0]?.id as string;
    const res = await api.remove(sub.userToken, sub.token, [
      sub.sources[0]?.id,
      unknown,
      sub.sources[1]?.id,
      foreignId,
    ]);
    const { details } = expectError(res, 404, 'source_not_found');
    expect(details?.['unknown_ids']).toEqual([unknown, foreignId]);
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it('answers 404 for an unknown subscription and 403 for another user', async () => {
    const { token } = await t.newUser();
    expectError(await api.remove(token, 'unknown-token', [sha32('x')]), 404, 'subscription_not_found');
    const foreign = await api.create([vlessUri()]);
    expectError(await api.remove(token, foreign.token, [foreign.sources[0]?.id]), 403, 'forbidden');
    expect(await api.storedRows(foreign.token)).toHaveLength(1);
  });
});

describeEachDatabase('sources: internal references', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  /** Makes `holder` reference `target` (asserting success). */
  async function link(holder: { userToken: string; token: string }, target: { token: string }): Promise<void> {
    const res = await api.add(holder.userToken, holder.token, [internalRef(target.token)]);
    expect(res.statusCode, res.body).toBe(200);
  }

  it('refuses a reference to a subscription that does not exist', async () => {
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, [
      vlessUri(),
      internalRef('NoSuchToken_000000000000000000000000000000'),
    ]);
    expect(expectError(res, 400, 'invalid_source').details?.['index']).toBe(1);
    expect(await api.storedRows(sub.token)).toEqual([]);
  });

  it("accepts a reference to another user's subscription", async () => {
    const foreign = await api.create([vlessUri()]);
    const mine = await api.create();
    expect(foreign.userToken).not.toBe(mine.userToken);
    await link(mine, foreign);
    expect((await api.get(mine.userToken, mine.token)).sources).toMatchObject([
      { source_type: 'internal_token', data: internalRef(foreign.token), id: sha32(`internal:${foreign.token}`) },
    ]);
  });

  it('refuses a self reference with 400 circular_reference', async () => {
    const sub = await api.create();
    expectError(await api.add(sub.userToken, sub.token, [internalRef(sub.token)]), 400, 'circular_reference');
    expectError(await api.replace(sub.userToken, sub.token, [internalRef(sub.token)]), 400, 'circular_reference');
    expect(await api.storedRows(sub.token)).toEqual([]);
  });

  it('refuses B->A when A->B exists, with the chain in details', async () => {
    const a = await api.create();
    const b = await api.create([vlessUri()]);
    await link(a, b);
    const before = await api.storedRows(b.token);
    const { details } = expectError(
      await api.add(b.userToken, b.token, [internalRef(a.token)]),
      400,
      'circular_reference',
    );
    expect(details?.['chain']).toEqual([b.token, a.token, b.token]);
    expect(await api.storedRows(b.token)).toEqual(before);
  });

  it('refuses closing a longer cycle (A->B->C, then C->A)', async () => {
    const [a, b, c] = [await api.create(), await api.create(), await api.create()];
    await link(b, c);
    await link(a, b);
    const { details } = expectError(
      await api.add(c.userToken, c.token, [internalRef(a.token)]),
      400,
      'circular_reference',
    );
    expect(details?.['chain']).toEqual([c.token, a.token, b.token, c.token]);
  });

  it('allows A->B->C->D with MAX_NESTING_DEPTH 3 and refuses a chain of 4 below the holder', async () => {
    const [a, b, c, d, e] = [
      await api.create(),
      await api.create(),
      await api.create(),
      await api.create([vlessUri()]),
      await api.create(),
    ];
    await link(c, d);
    await link(b, c);
    await link(a, b);
    expect((await api.get(a.userToken, a.token)).sources.map((s) => s.data)).toEqual([internalRef(b.token)]);

    const before = await api.storedRows(e.token);
    expectError(await api.add(e.userToken, e.token, [vlessUri(), internalRef(a.token)]), 400, 'nesting_too_deep');
    expectError(await api.replace(e.userToken, e.token, [internalRef(a.token)]), 400, 'nesting_too_deep');
    expect(await api.storedRows(e.token)).toEqual(before);

    const { token: owner } = await t.newUser();
    const create = await t.call('POST', '/api/v1/subs', {
      token: owner,
      body: { name: 'deep', sources: [internalRef(a.token)] },
    });
    expectError(create, 400, 'nesting_too_deep');
    expect((await t.call('GET', '/api/v1/subs', { token: owner })).json()).toEqual([]);

    // One level shorter is fine.
    await link(e, b);
  });
});

describeEachDatabase('sources: MAX_NESTING_DEPTH=0', (kind) => {
  const t = useTestApp(kind, { MAX_NESTING_DEPTH: '0' });
  const api = subsApi(t);

  it('refuses any internal reference but still accepts other sources', async () => {
    const target = await api.create([vlessUri()]);
    const sub = await api.create();
    expectError(await api.add(sub.userToken, sub.token, [internalRef(target.token)]), 400, 'nesting_too_deep');
    expect(await api.storedRows(sub.token)).toEqual([]);
    const res = await api.add(sub.userToken, sub.token, [vlessUri(), externalUrl()]);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describeEachDatabase('sources: SSRF refusal (FETCH_ALLOW_PRIVATE=false)', (kind) => {
  const t = useTestApp(kind, { FETCH_ALLOW_PRIVATE: 'false' });
  const api = subsApi(t);

  it.each([
    'http://127.0.0.1/',
    'http://localhost/',
    'http://LOCALHOST./sub',
    'http://10.0.0.1/',
    'http://192.168.1.1:8080/s',
    'http://169.254.169.254/latest/meta-data',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[fd00:ec2::254]/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://0.0.0.0/',
  ])('refuses %s with 400 invalid_url', async (url) => {
    const sub = await api.create();
    const { details } = expectError(await api.add(sub.userToken, sub.token, [vlessUri(), url]), 400, 'invalid_url');
    expect(details?.['index']).toBe(1);
    expect(await api.storedRows(sub.token)).toEqual([]);
  });

  it('refuses a private URL on create and replace as well', async () => {
    const { token } = await t.newUser();
    const create = await t.call('POST', '/api/v1/subs', { token, body: { name: 'x', sources: ['http://10.1.2.3/'] } });
    expectError(create, 400, 'invalid_url');
    const sub = await api.create([vlessUri()], token);
    const before = await api.storedRows(sub.token);
    expectError(await api.replace(token, sub.token, ['http://127.0.0.1:8080/']), 400, 'invalid_url');
    expect(await api.storedRows(sub.token)).toEqual(before);
  });

  it('accepts a public host that does not resolve offline, and internal references', async () => {
    const target = await api.create();
    const { token } = await t.newUser();
    const res = await t.call('POST', '/api/v1/subs', {
      token,
      body: { name: 'public', sources: ['https://sub.example.com/path', internalRef(target.token)] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ sources: Source[] }>().sources.map((s) => s.source_type)).toEqual([
      'external_url',
      'internal_token',
    ]);
  });
});

describeEachDatabase('sources: private URLs with FETCH_ALLOW_PRIVATE=true', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it('accepts loopback and private URLs when private fetching is allowed', async () => {
    const sub = await api.create(['http://127.0.0.1:9/sub', 'http://10.0.0.1/']);
    expect(sub.sources.map((s) => s.source_type)).toEqual(['external_url', 'external_url']);
  });
});
