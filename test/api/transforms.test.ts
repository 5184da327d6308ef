// Transform chains through the API and on the public link (docs/transforms.md): stored, validated, applied in every
// format and down the reference tree, and tried unsaved in the preview.
import { expect, it } from 'vitest';
import { FORMATS } from '../../src/formats/formats.js';
import { uriReadings } from '../../src/formats/share-uri/index.js';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { approvedPair, internalRef, ssUri, subsApi, trojanUri, unique, vlessUri } from '../support/factories.js';
import { useUpstream } from '../support/upstream-server.js';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0', accept: 'text/html' };

describeEachDatabase('transforms', (kind) => {
  const t = useTestApp(kind);
  const upstream = useUpstream();
  const api = subsApi(t);

  const named = (name: string) => `${vlessUri()}#${name}`;
  const putChain = (userToken: string, token: string, transforms: unknown) =>
    t.call('PUT', `/api/v1/subs/${token}/transforms`, { token: userToken, body: { transforms } });
  const plain = async (token: string) => {
    const res = await t.call('GET', `/api/v1/sub/${token}/plain`);
    expect(res.statusCode, res.body).toBe(200);
    return res.body.split('\n').map((line) => decodeURIComponent(line.slice(line.indexOf('#') + 1)));
  };

  it('create, PATCH and PUT store the chain with its defaults filled in, and the subscription shows it', async () => {
    const owner = await t.newUser();
    const created = await t.call('POST', '/api/v1/subs', {
      token: owner.token,
      body: { name: unique('s'), sources: [named('JP-1')], transforms: [{ op: 'include', pattern: 'JP' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const sub = created.json<{ token: string; transforms: unknown }>();
    expect(sub.transforms).toEqual([{ op: 'include', pattern: 'JP', field: 'name' }]);

    const patched = await t.call('PATCH', `/api/v1/subs/${sub.token}`, {
      token: owner.token,
      body: { transforms: [{ op: 'sort', order: 'desc' }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<{ transforms: unknown }>().transforms).toEqual([{ op: 'sort', by: 'name', order: 'desc' }]);

    const put = await putChain(owner.token, sub.token, [
      { op: 'prefix', text: '» ' },
      { op: 'limit', count: 5 },
    ]);
    expect(put.statusCode, put.body).toBe(200);
    expect((await api.get(owner.token, sub.token)).transforms).toEqual([
      { op: 'prefix', text: '» ' },
      { op: 'limit', count: 5 },
    ]);
    const list = await t.call('GET', '/api/v1/subs', { token: owner.token });
    expect(list.json<Array<{ transforms: unknown[] }>>()[0]?.transforms).toHaveLength(2);

    expect((await putChain(owner.token, sub.token, null)).json<{ transforms: unknown }>().transforms).toEqual([]);
    const row = await t.database.db
      .selectFrom('subscriptions')
      .select('transforms')
      .where('token', '=', sub.token)
      .executeTakeFirstOrThrow();
    expect(row.transforms).toBeNull();
  });

  it('a provider sets the chain of a subscription it manages on its own mount', async () => {
    const { provider, subs } = await approvedPair(t);
    const created = await t.call('POST', subs, {
      token: provider.token,
      body: { name: unique('p'), sources: [named('A'), named('B')], transforms: [{ op: 'exclude', pattern: '^A$' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { token } = created.json<{ token: string }>();
    expect(await plain(token)).toEqual(['B']);
    const patched = await t.call('PATCH', `${subs}/${token}`, {
      token: provider.token,
      body: { transforms: [{ op: 'suffix', text: '!' }] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await plain(token)).toEqual(['A!', 'B!']);
    const put = await t.call('PUT', `${subs}/${token}/transforms`, {
      token: provider.token,
      body: { transforms: [{ op: 'rename', pattern: 'A', replace: 'Z' }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await plain(token)).toEqual(['Z', 'B']);
    const bad = await t.call('PUT', `${subs}/${token}/transforms`, {
      token: provider.token,
      body: { transforms: [{ op: 'nope' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string; details: { index: number } }>()).toMatchObject({
      error: 'invalid_transform',
      details: { index: 0 },
    });
  });

  it('every format and the page serve the renamed servers, and the counts follow the chain', async () => {
    const sub = await api.create([
      named('JP-1'),
      `${trojanUri()}#JP-2`,
      `${ssUri()}#JP-3`,
      named('US-1'),
      named('剩余流量：10GB'),
    ]);
    const chain = [
      { op: 'drop_info' },
      { op: 'include', pattern: 'JP' },
      { op: 'rename', pattern: 'JP-(\\d)', replace: 'Tokyo-$1' },
    ];
    expect((await putChain(sub.userToken, sub.token, chain)).statusCode).toBe(200);
    for (const format of FORMATS) {
      const res = await t.call('GET', `/api/v1/sub/${sub.token}/${format}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = format === 'base64' ? Buffer.from(res.body, 'base64').toString('utf8') : res.body;
      // SIP008 carries Shadowsocks servers only.
      for (const name of format === 'sip008' ? ['Tokyo-3'] : ['Tokyo-1', 'Tokyo-2', 'Tokyo-3']) {
        expect(body, format).toContain(name);
      }
      expect(body, format).not.toContain('US-1');
      expect(body, format).not.toContain('JP-');
    }
    // The chain runs on the stored parse results: a cold GET reads no line, renamed ones included.
    await t.context.changes.write(async (_trx, record) => record({ kind: 'subscription', token: sub.token }));
    const before = uriReadings.count;
    expect((await t.call('GET', `/api/v1/sub/${sub.token}/mihomo`)).body).toContain('Tokyo-1');
    expect(uriReadings.count - before).toBe(0);
    const page = await t.call('GET', `/sub/${sub.token}`, { headers: BROWSER });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('US-1');
    expect((await api.get(sub.userToken, sub.token)).sources_count).toBe(3);
  });

  it("a referenced subscription contributes its transformed servers, and the parent's chain runs after", async () => {
    const child = await api.create([named('c-JP'), named('c-US')]);
    expect((await putChain(child.userToken, child.token, [{ op: 'include', pattern: 'JP' }])).statusCode).toBe(200);
    const keptAgain = named('c-US-again');
    const parent = await api.create([internalRef(child.token), named('p-1'), keptAgain], child.userToken);
    expect(await plain(parent.token)).toEqual(['c-JP', 'p-1', 'c-US-again']);
    await putChain(parent.userToken, parent.token, [
      { op: 'prefix', text: 'P ' },
      { op: 'sort', order: 'desc' },
    ]);
    expect(await plain(parent.token)).toEqual(['P p-1', 'P c-US-again', 'P c-JP']);
    // The child's own link shows only its own chain.
    expect(await plain(child.token)).toEqual(['c-JP']);
  });

  it("an upstream's servers pass the chain", async () => {
    const lines = ['HK 01', 'JP 01', 'HK 02'].map(
      (name, i) => `trojan://pw${i}@up${i}.example.net:443#${encodeURIComponent(name)}`,
    );
    const url = upstream.current.add(lines.join('\n'));
    const sub = await api.create([url]);
    expect(await plain(sub.token)).toEqual(['HK 01', 'JP 01', 'HK 02']);
    await putChain(sub.userToken, sub.token, [{ op: 'include', pattern: '^HK' }, { op: 'flag' }]);
    expect(await plain(sub.token)).toEqual(['🇭🇰 HK 01', '🇭🇰 HK 02']);
  });

  it('changing the chain drops the cached bodies of the subscription and of every one that includes it', async () => {
    const child = await api.create([named('one'), named('two')]);
    const parent = await api.create([internalRef(child.token)], child.userToken);
    expect(await plain(parent.token)).toEqual(['one', 'two']);
    expect(await plain(child.token)).toEqual(['one', 'two']);
    await putChain(child.userToken, child.token, [{ op: 'exclude', pattern: 'one' }]);
    expect(await plain(child.token)).toEqual(['two']);
    expect(await plain(parent.token)).toEqual(['two']);
  });

  it('a bad operator in any field is 400 invalid_transform naming its index, and nothing is stored', async () => {
    const sub = await api.create([named('x')]);
    const good = { op: 'sort' };
    const bad: unknown[] = [
      'include',
      { op: 'unknown' },
      { op: 'include' },
      { op: 'include', pattern: '(JP' },
      { op: 'include', pattern: 'a', field: 'port' },
      { op: 'include', pattern: 'x'.repeat(257) },
      { op: 'exclude', pattern: '(?=a)' },
      { op: 'types', keep: [] },
      { op: 'types', keep: ['http'] },
      { op: 'rename', pattern: 'a' },
      { op: 'rename', pattern: 'a', replace: 'b'.repeat(257) },
      { op: 'prefix', text: '' },
      { op: 'suffix', text: 'a\u0007' },
      { op: 'sort', by: 'port' },
      { op: 'sort', order: 'up' },
      { op: 'dedupe', by: 'host' },
      { op: 'limit', count: 0 },
      { op: 'limit', count: 1.5 },
      { op: 'flag', extra: 1 },
    ];
    for (const operator of bad) {
      const res = await putChain(sub.userToken, sub.token, [good, operator]);
      expect(res.statusCode, JSON.stringify(operator)).toBe(400);
      const body = res.json<{ error: string; message: string; details: { index: number } }>();
      expect(body.error, res.body).toBe('invalid_transform');
      expect(body.details.index, JSON.stringify(operator)).toBe(1);
      expect(body.message).toMatch(/^operator 1: /);
    }
    const tooMany = await putChain(
      sub.userToken,
      sub.token,
      Array.from({ length: 33 }, () => good),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ error: string }>().error).toBe('invalid_transform');
    const created = await t.call('POST', '/api/v1/subs', {
      token: sub.userToken,
      body: { name: unique('s'), transforms: [{ op: 'limit' }] },
    });
    expect(created.json<{ error: string; details: { index: number } }>()).toMatchObject({
      error: 'invalid_transform',
      details: { index: 0 },
    });
    expect((await api.get(sub.userToken, sub.token)).transforms).toEqual([]);
  });

  it('a hostile pattern is refused with a reason or runs in linear time', async () => {
    const sub = await api.create([named('a'.repeat(200) + '!')]);
    const refused = await putChain(sub.userToken, sub.token, [{ op: 'include', pattern: '(a)\\1' }]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toBe('invalid_transform');
    const accepted = await putChain(sub.userToken, sub.token, [{ op: 'include', pattern: '^(a+)+$' }]);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await t.call('GET', `/api/v1/sub/${sub.token}/plain`).then((r) => r.body)).toBe('');
  });

  it("the preview tries an unsaved chain and answers each operator's servers in and out", async () => {
    const sub = await api.create([named('JP-1'), named('JP-2'), named('US-1'), named('官网 example.com')]);
    await putChain(sub.userToken, sub.token, [{ op: 'limit', count: 1 }]);
    const chain = [{ op: 'drop_info' }, { op: 'include', pattern: 'JP' }, { op: 'suffix', text: ' ✓' }];
    type Preview = {
      body: string;
      served: number;
      steps?: Array<{ index: number; op: string; in: number; out: number }>;
    };
    const posted = await t.call('POST', `/api/v1/subs/${sub.token}/preview`, {
      token: sub.userToken,
      body: { format: 'plain', transforms: chain },
    });
    expect(posted.statusCode, posted.body).toBe(200);
    const preview = posted.json<Preview>();
    expect(preview.steps).toEqual([
      { index: 0, op: 'drop_info', in: 4, out: 3 },
      { index: 1, op: 'include', in: 3, out: 2 },
      { index: 2, op: 'suffix', in: 2, out: 2 },
    ]);
    expect(preview.served).toBe(2);
    expect(preview.body).toContain('JP-1%20%E2%9C%93');

    const query = `?format=plain&transforms=${encodeURIComponent(JSON.stringify(chain))}`;
    const got = await t.call('GET', `/api/v1/subs/${sub.token}/preview${query}`, { token: sub.userToken });
    expect(got.json<Preview>().steps).toEqual(preview.steps);
    // Without `transforms` the saved chain answers, and the link was not changed by trying.
    const saved = await t.call('GET', `/api/v1/subs/${sub.token}/preview?format=plain`, { token: sub.userToken });
    expect(saved.json<Preview>()).toMatchObject({ served: 1 });
    expect(saved.json<Preview>().steps).toBeUndefined();
    expect(await plain(sub.token)).toEqual(['JP-1']);
    const none = await t.call('POST', `/api/v1/subs/${sub.token}/preview`, {
      token: sub.userToken,
      body: { format: 'plain', transforms: [] },
    });
    expect(none.json<Preview>()).toMatchObject({ served: 4, steps: [] });

    const bad = await t.call('POST', `/api/v1/subs/${sub.token}/preview`, {
      token: sub.userToken,
      body: { transforms: [{ op: 'sort' }, { op: 'include', pattern: '(?<=x)' }] },
    });
    expect(bad.json<{ error: string; details: { index: number } }>()).toMatchObject({
      error: 'invalid_transform',
      details: { index: 1 },
    });
    const notJson = await t.call('GET', `/api/v1/subs/${sub.token}/preview?transforms=%5B`, { token: sub.userToken });
    expect(notJson.json<{ error: string; details: { index: null } }>()).toMatchObject({
      error: 'invalid_transform',
      details: { index: null },
    });
  });
});
