// References (docs/api.md, Classification): links copied from any address of this service are references; dangling ones stay listed and contribute nothing.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase, TEST_BASE_URL, useTestApp } from '../support/harness.js';
import { internalRef, sha32, subsApi, trojanUri, vlessUri, type Source } from '../support/factories.js';
import { expectError } from '../support/expect.js';

const unknownToken = (): string => randomBytes(32).toString('base64url');
const referenceId = (token: string): string => sha32(`internal:${token}`);

describeEachDatabase('sources: links copied from other addresses', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  it.each([
    ['a LAN address', (token: string) => `http://192.168.1.20:8080/sub/${token}`],
    ['127.0.0.1 with the API path', (token: string) => `http://127.0.0.1:3000/api/v1/sub/${token}`],
    ['an old domain over https', (token: string) => `https://old-name.example.org/sub/${token}`],
    [
      'an old domain with a format segment and a query',
      (token: string) => `https://old.example.org/sub/${token}/mihomo?x=1`,
    ],
    [
      'upper-case scheme and host, API path, format and slash',
      (token: string) => `HTTPS://OLD.EXAMPLE.ORG/api/v1/sub/${token}/sing-box/`,
    ],
    ['a trailing slash and a fragment', (token: string) => `http://10.0.0.7/sub/${token}/#copied`],
    ['this service with a format segment', (token: string) => `${TEST_BASE_URL}/sub/${token}/xray`],
  ])('classifies a link from %s as a reference to an existing token', async (_label, link) => {
    const target = await api.create([vlessUri()]);
    const holder = await api.create([link(target.token)]);
    expect(holder.sources).toHaveLength(1);
    expect(holder.sources[0]).toMatchObject({
      id: referenceId(target.token),
      source_type: 'internal_token',
      data: internalRef(target.token),
      last_error: null,
    });
  });

  it('serves the referenced lines and de-duplicates copies of one link from different addresses', async () => {
    const config = vlessUri();
    const target = await api.create([`${config}#Shared`]);
    const holder = await api.create([
      `http://192.168.0.2/sub/${target.token}/clash`,
      `https://old.example.org/api/v1/sub/${target.token}`,
      internalRef(target.token),
    ]);
    expect(holder.sources.map((s) => s.id)).toEqual([referenceId(target.token)]);
    const res = await t.call('GET', `/sub/${holder.token}?format=plain`);
    expect(res.body).toBe(`${config}#Shared`);
  });

  it('keeps an unknown token on a foreign host an external URL, as typed', async () => {
    const url = `https://old.example.org/sub/${unknownToken()}/mihomo?x=1`;
    const sub = await api.create([url]);
    expect(sub.sources[0]).toMatchObject({ source_type: 'external_url', data: url, id: sha32(url) });
  });

  it.each([
    ['an extra segment after the format', (token: string) => `https://old.example.org/sub/${token}/mihomo/more`],
    ['a path prefix', (token: string) => `https://old.example.org/proxy/sub/${token}`],
    ['another endpoint', (token: string) => `https://old.example.org/api/v1/subs/${token}`],
  ])('keeps a link with %s an external URL even when the token exists', async (_label, link) => {
    const target = await api.create();
    const sub = await api.create([link(target.token)]);
    expect(sub.sources[0]?.source_type).toBe('external_url');
  });

  it('applies the reference rules to copied links: a copy of its own link is a cycle', async () => {
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, [`http://127.0.0.1:3000/sub/${sub.token}`]);
    expect(expectError(res, 400, 'circular_reference').details?.['chain']).toEqual([sub.token, sub.token]);
  });
});

describeEachDatabase('sources: copied links with private fetching off', (kind) => {
  const t = useTestApp(kind, { FETCH_ALLOW_PRIVATE: 'false' });
  const api = subsApi(t);

  it('accepts a loopback or LAN copy of an existing link, and refuses one whose token is unknown', async () => {
    const target = await api.create([vlessUri()]);
    const holder = await api.create([`http://127.0.0.1:3000/sub/${target.token}`]);
    expect(holder.sources[0]?.source_type).toBe('internal_token');
    const res = await api.add(holder.userToken, holder.token, [`http://192.168.1.20/sub/${unknownToken()}`]);
    expect(expectError(res, 400, 'invalid_url').details?.['index']).toBe(0);
  });
});

describeEachDatabase('sources: dangling references', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);
  const plain = async (token: string): Promise<string> =>
    (await t.call('GET', `/api/v1/sub/${token}?format=plain`)).body;
  const deleteSub = async (userToken: string, token: string): Promise<void> => {
    const res = await t.call('DELETE', `/api/v1/subs/${token}`, { token: userToken });
    expect(res.statusCode, res.body).toBe(204);
  };

  it('lists a reference to a deleted subscription with last_error subscription_deleted; it adds nothing', async () => {
    const [own, theirs] = [vlessUri(), trojanUri()];
    const target = await api.create([theirs]);
    const holder = await api.create([internalRef(target.token), own]);
    expect(await plain(holder.token)).toContain(theirs);

    await deleteSub(target.userToken, target.token);
    const after = await api.get(holder.userToken, holder.token);
    expect(after.sources.map((s) => [s.id, s.source_type, s.last_error])).toEqual([
      [referenceId(target.token), 'internal_token', 'subscription_deleted'],
      [sha32(own), 'config', null],
    ]);
    expect(after.sources[0]?.data).toBe(internalRef(target.token));
    expect(after.sources_count).toBe(1);
    expect((await plain(holder.token)).split('\n')).toEqual([`${own}#${new URL(own).hostname}`]);
  });

  it('marks only the reference whose subscription is gone, also deeper in a chain', async () => {
    const leaf = await api.create([vlessUri()]);
    const middle = await api.create([internalRef(leaf.token)]);
    const top = await api.create([internalRef(middle.token)]);
    await deleteSub(leaf.userToken, leaf.token);
    expect((await api.get(middle.userToken, middle.token)).sources[0]?.last_error).toBe('subscription_deleted');
    expect((await api.get(top.userToken, top.token)).sources[0]?.last_error).toBeNull();
    expect(await plain(top.token)).toBe('');
  });

  it('round-trips a list holding a dangling reference, but refuses a new reference to a deleted one', async () => {
    const target = await api.create([vlessUri()]);
    const holder = await api.create([internalRef(target.token), vlessUri()]);
    const other = await api.create([vlessUri()], holder.userToken);
    await deleteSub(target.userToken, target.token);

    const sent = holder.sources.map((s) => s.data).reverse();
    const res = await api.replace(holder.userToken, holder.token, sent);
    expect(res.statusCode, res.body).toBe(200);
    const kept = res.json<{ sources: Source[] }>().sources;
    expect(kept.map((s) => [s.id, s.last_error])).toEqual([
      [holder.sources[1]?.id, null],
      [referenceId(target.token), 'subscription_deleted'],
    ]);

    const elsewhere = await api.replace(other.userToken, other.token, [internalRef(target.token)]);
    expect(expectError(elsewhere, 400, 'invalid_source').details?.['index']).toBe(0);
    const added = await api.add(other.userToken, other.token, [internalRef(target.token)]);
    expect(expectError(added, 400, 'invalid_source').details?.['index']).toBe(0);
  });
});
