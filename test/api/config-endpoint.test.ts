// HTTP tests of PATCH .../config and the deprecated PATCH .../comments: comments, flags, validation and headers.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import {
  byId,
  externalUrl,
  internalRef,
  sha32,
  subsApi,
  trojanUri,
  vlessUri,
  type Source,
} from '../support/factories.js';
import { expectError } from '../support/expect.js';

type SourceFlags = { is_hidden?: boolean; max_depth?: number };

/**
 * A subscription holding one config (with an optional input comment) and `others`; returns it, a reader for the
 * source and a PATCH of it through the config endpoint or the deprecated comments endpoint.
 */
async function configFixture(
  api: ReturnType<typeof subsApi>,
  via: 'config' | 'comments',
  inputComment: string | undefined,
  flags: SourceFlags,
  others: string[] = [],
) {
  const uri = vlessUri();
  const data = inputComment === undefined ? uri : `${uri}#${inputComment}`;
  const sub = await api.create([{ data, ...flags }, ...others]);
  const id = sha32(uri);
  const read = async (): Promise<Source> => byId((await api.get(sub.userToken, sub.token)).sources, id);
  return {
    sub,
    uri,
    id,
    read,
    patch: (body: Record<string, unknown>) => api[via](sub.userToken, sub.token, { config_id: id, ...body }),
  };
}

describeEachDatabase('PATCH config', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  const withConfig = (inputComment?: string, flags: SourceFlags = {}) =>
    configFixture(api, 'config', inputComment, flags, [trojanUri()]);

  it('answers 204 with an empty body and sets the comment, shown encoded in data', async () => {
    const c = await withConfig();
    const res = await c.patch({ comment: 'Frankfurt #1 a+b' });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await c.read()).toMatchObject({ comment: 'Frankfurt #1 a+b', data: `${c.uri}#Frankfurt%20%231%20a%2Bb` });
  });

  it('stores a unicode comment and encodes it as UTF-8', async () => {
    const c = await withConfig();
    expect((await c.patch({ comment: 'Москва' })).statusCode).toBe(204);
    expect(await c.read()).toMatchObject({ comment: 'Москва', data: `${c.uri}#%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0` });
  });

  it.each([
    ['null', null],
    ['an empty string', ''],
  ])('resets the comment with %s (comment null, data without fragment)', async (_label, comment) => {
    const c = await withConfig('Old%20Name');
    expect((await c.read()).comment).toBe('Old Name');
    expect((await c.patch({ comment })).statusCode).toBe(204);
    expect(await c.read()).toMatchObject({ comment: null, data: c.uri });
  });

  it('leaves the comment alone when it is omitted', async () => {
    const c = await withConfig('Keep');
    expect((await c.patch({ is_hidden: true })).statusCode).toBe(204);
    expect(await c.read()).toMatchObject({ comment: 'Keep', data: `${c.uri}#Keep`, is_hidden: true });
  });

  it('changes is_hidden and max_depth only when given; null leaves them', async () => {
    const c = await withConfig('Name', { is_hidden: false, max_depth: 2 });
    const state = async () => {
      const s = await c.read();
      return [s.comment, s.is_hidden, s.max_depth];
    };
    expect((await c.patch({ is_hidden: true })).statusCode).toBe(204);
    expect(await state()).toEqual(['Name', true, 2]);
    expect((await c.patch({ max_depth: 0 })).statusCode).toBe(204);
    expect(await state()).toEqual(['Name', true, 0]);
    expect((await c.patch({ is_hidden: null, max_depth: null })).statusCode).toBe(204);
    expect(await state()).toEqual(['Name', true, 0]);
    expect((await c.patch({ is_hidden: false, max_depth: 3, comment: 'New' })).statusCode).toBe(204);
    expect(await state()).toEqual(['New', false, 3]);
    expect((await c.patch({})).statusCode).toBe(204);
    expect(await state()).toEqual(['New', false, 3]);
  });

  it('leaves the other sources of the subscription untouched', async () => {
    const c = await withConfig();
    const other = c.sub.sources[1] as Source;
    expect((await c.patch({ comment: 'Only me', is_hidden: true, max_depth: 1 })).statusCode).toBe(204);
    expect(byId((await api.get(c.sub.userToken, c.sub.token)).sources, other.id)).toEqual(other);
  });

  it.each([
    ['max_depth 4', { max_depth: 4 }],
    ['max_depth -1', { max_depth: -1 }],
    ['max_depth as a string', { max_depth: '2' }],
    ['is_hidden as a string', { is_hidden: 'true' }],
    ['a comment of 257 characters', { comment: 'x'.repeat(257) }],
    ['a comment that is a number', { comment: 5 }],
  ])('refuses %s with 400 validation_failed, changing nothing', async (_label, body) => {
    const c = await withConfig('Stay', { max_depth: 2 });
    const before = await c.read();
    expectError(await c.patch(body), 400, 'validation_failed');
    expect(await c.read()).toEqual(before);
  });

  it('accepts a comment of exactly 256 code points (emoji count once)', async () => {
    const c = await withConfig();
    expect((await c.patch({ comment: 'y'.repeat(256) })).statusCode).toBe(204);
    expect((await c.read()).comment).toBe('y'.repeat(256));
    expect((await c.patch({ comment: '🚀'.repeat(256) })).statusCode).toBe(204);
    expect((await c.read()).comment).toBe('🚀'.repeat(256));
  });

  it('refuses an empty or missing config_id with 400', async () => {
    const c = await withConfig();
    expectError(
      await api.config(c.sub.userToken, c.sub.token, { config_id: '', comment: 'x' }),
      400,
      'validation_failed',
    );
    expectError(await api.config(c.sub.userToken, c.sub.token, { comment: 'x' }), 400, 'validation_failed');
    expect((await c.read()).comment).toBeNull();
  });

  it('answers 404 config_not_found for an id not in this subscription', async () => {
    const c = await withConfig();
    const elsewhere = await api.create([vlessUri()]);
    const foreignId = elsewhere.sources[0]?.id as string;
    for (const configId of [sha32('unknown'), foreignId, 'not-an-id']) {
      const { details } = expectError(
        await api.config(c.sub.userToken, c.sub.token, { config_id: configId, comment: 'x' }),
        404,
        'config_not_found',
      );
      expect(details?.['config_id']).toBe(configId);
    }
    expect(byId((await api.get(elsewhere.userToken, elsewhere.token)).sources, foreignId).comment).toBeNull();
  });

  it('answers 404 for an unknown subscription and 403 for another user', async () => {
    const c = await withConfig();
    const { token: stranger } = await t.newUser();
    expectError(
      await api.config(stranger, 'NoSuchSubscription', { config_id: c.id, comment: 'x' }),
      404,
      'subscription_not_found',
    );
    expectError(await api.config(stranger, c.sub.token, { config_id: c.id, comment: 'x' }), 403, 'forbidden');
    expect((await c.read()).comment).toBeNull();
  });

  it('refuses a non-empty comment on external and internal sources, but applies is_hidden and max_depth', async () => {
    const target = await api.create();
    const url = externalUrl();
    const sub = await api.create([url, internalRef(target.token)]);
    for (const source of sub.sources) {
      const patch = (body: Record<string, unknown>) =>
        api.config(sub.userToken, sub.token, { config_id: source.id, ...body });
      const read = async () => byId((await api.get(sub.userToken, sub.token)).sources, source.id);

      const { details } = expectError(await patch({ comment: 'Name', is_hidden: true }), 400, 'comment_not_applicable');
      expect(details?.['source_type']).toBe(source.source_type);
      expect(await read()).toEqual(source);

      expect((await patch({ is_hidden: true, max_depth: 1 })).statusCode).toBe(204);
      expect(await read()).toMatchObject({ is_hidden: true, max_depth: 1, comment: null, data: source.data });

      for (const comment of [null, '']) {
        const res = await patch({ comment });
        expect(res.statusCode, res.body).toBe(204);
        expect(await read()).toMatchObject({ is_hidden: true, max_depth: 1, comment: null, data: source.data });
      }
    }
  });

  it('keeps different comments for the same config in two subscriptions', async () => {
    const uri = vlessUri();
    const id = sha32(uri);
    const a = await api.create([uri]);
    const b = await api.create([`${uri}#Input`]);
    expect((await api.config(a.userToken, a.token, { config_id: id, comment: 'For A' })).statusCode).toBe(204);
    expect(
      (await api.config(b.userToken, b.token, { config_id: id, comment: 'For B', is_hidden: true })).statusCode,
    ).toBe(204);
    expect(byId((await api.get(a.userToken, a.token)).sources, id)).toMatchObject({
      comment: 'For A',
      is_hidden: false,
      data: `${uri}#For%20A`,
    });
    expect(byId((await api.get(b.userToken, b.token)).sources, id)).toMatchObject({
      comment: 'For B',
      is_hidden: true,
      data: `${uri}#For%20B`,
    });
  });

  it('produces data that round-trips: PUT of the returned data keeps the patched comment', async () => {
    const c = await withConfig();
    expect((await c.patch({ comment: '🇩🇪 Berlin / 2' })).statusCode).toBe(204);
    const before = (await api.get(c.sub.userToken, c.sub.token)).sources;
    const res = await api.replace(
      c.sub.userToken,
      c.sub.token,
      before.map((s) => s.data),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(byId(res.json<{ sources: Source[] }>().sources, c.id).comment).toBe('🇩🇪 Berlin / 2');
  });
});

describeEachDatabase('PATCH comments (deprecated)', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);

  const withConfig = (inputComment?: string) => configFixture(api, 'comments', inputComment, { max_depth: 2 });

  it('answers 204 with an empty body, the Deprecation header and a Link to the config endpoint', async () => {
    const c = await withConfig();
    const res = await c.patch({ comment: 'Via comments' });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['deprecation']).toMatch(/^@\d+$/);
    expect(res.headers['link']).toBe(`</api/v1/subs/${c.sub.token}/config>; rel="successor-version"`);
    expect(await c.read()).toMatchObject({ comment: 'Via comments', data: `${c.uri}#Via%20comments` });
  });

  it.each([
    ['null', null],
    ['an empty string', ''],
  ])('resets the comment with %s', async (_label, comment) => {
    const c = await withConfig('Old');
    expect((await c.patch({ comment })).statusCode).toBe(204);
    expect(await c.read()).toMatchObject({ comment: null, data: c.uri });
  });

  it('leaves the comment alone when it is omitted', async () => {
    const c = await withConfig('Keep');
    expect((await c.patch({})).statusCode).toBe(204);
    expect((await c.read()).comment).toBe('Keep');
  });

  it('ignores is_hidden and max_depth', async () => {
    const c = await withConfig();
    const res = await c.patch({ comment: 'Named', is_hidden: true, max_depth: 0 });
    expect(res.statusCode, res.body).toBe(204);
    expect(await c.read()).toMatchObject({ comment: 'Named', is_hidden: false, max_depth: 2 });
  });

  it('validates like the config endpoint', async () => {
    const c = await withConfig('Stay');
    const before = await c.read();
    expectError(await c.patch({ comment: 'x'.repeat(257) }), 400, 'validation_failed');
    expectError(
      await api.comments(c.sub.userToken, c.sub.token, { config_id: '', comment: 'x' }),
      400,
      'validation_failed',
    );
    expectError(
      await api.comments(c.sub.userToken, c.sub.token, { config_id: sha32('nope'), comment: 'x' }),
      404,
      'config_not_found',
    );
    expect(await c.read()).toEqual(before);
  });

  it('refuses a non-empty comment on an external source with comment_not_applicable', async () => {
    const sub = await api.create([externalUrl()]);
    const source = sub.sources[0] as Source;
    const res = await api.comments(sub.userToken, sub.token, { config_id: source.id, comment: 'Name' });
    expectError(res, 400, 'comment_not_applicable');
    expect((await api.get(sub.userToken, sub.token)).sources).toEqual([source]);
    expect((await api.comments(sub.userToken, sub.token, { config_id: source.id, comment: null })).statusCode).toBe(
      204,
    );
    expect((await api.get(sub.userToken, sub.token)).sources).toMatchObject([{ comment: null, data: source.data }]);
  });

  it('answers 404 for an unknown subscription and 403 for another user', async () => {
    const c = await withConfig();
    const { token: stranger } = await t.newUser();
    expectError(
      await api.comments(stranger, 'NoSuchSubscription', { config_id: c.id, comment: 'x' }),
      404,
      'subscription_not_found',
    );
    expectError(await api.comments(stranger, c.sub.token, { config_id: c.id, comment: 'x' }), 403, 'forbidden');
  });
});
