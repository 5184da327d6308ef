// Names survive pasting (docs/api.md, Comments): a vmess link's `ps` is kept, and an explicit `comment` wins over the one in `data`.
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import {
  externalUrl,
  internalRef,
  sha32,
  subsApi,
  trojanUri,
  vlessUri,
  vmessJsonUri,
  type Source,
} from '../support/factories.js';
import { expectError } from '../support/expect.js';

/** The JSON inside a served `vmess://<base64>` line. */
function vmessJson(line: string): Record<string, unknown> {
  expect(line.startsWith('vmess://'), line).toBe(true);
  return JSON.parse(Buffer.from(line.slice('vmess://'.length), 'base64').toString('utf8')) as Record<string, unknown>;
}

function issuePaths(res: LightMyRequestResponse): string[] {
  const details = expectError(res, 400, 'validation_failed').details as { issues: Array<{ path: string }> };
  return details.issues.map((issue) => issue.path);
}

describeEachDatabase('sources: names survive pasting', (kind) => {
  const t = useTestApp(kind);
  const api = subsApi(t);
  const plainLink = async (token: string): Promise<string[]> => {
    const res = await t.call('GET', `/api/v1/sub/${token}?format=plain`);
    expect(res.statusCode, res.body).toBe(200);
    return res.body.split('\n');
  };

  it("keeps a pasted vmess link's ps as its comment and serves it in the JSON", async () => {
    const uri = vmessJsonUri('  Tokyo 01 ⚡ ');
    const sub = await api.create([uri]);
    const [source] = sub.sources;
    expect(source).toMatchObject({ id: sha32(uri), comment: 'Tokyo 01 ⚡', data: `${uri}#Tokyo%2001%20%E2%9A%A1` });
    const [line] = await plainLink(sub.token);
    expect(vmessJson(line ?? '')['ps']).toBe('Tokyo 01 ⚡');
  });

  it('lets a # fragment win over ps, and treats a blank ps as none (the host is served)', async () => {
    const named = vmessJsonUri('Upstream name');
    const blank = vmessJsonUri('   ');
    const sub = await api.create([`${named}#Mine`, blank]);
    expect(sub.sources.map((s) => s.comment)).toEqual(['Mine', null]);
    const [first, second] = await plainLink(sub.token);
    expect(vmessJson(first ?? '')['ps']).toBe('Mine');
    const host = vmessJson(blank)['add'];
    expect(vmessJson(second ?? '')['ps']).toBe(host);
  });

  it('lets an explicit comment win over a # fragment and over ps; null keeps them, "" drops them', async () => {
    const [a, b, c, d] = [vlessUri(), vmessJsonUri('From ps'), vlessUri(), vmessJsonUri('Also ps')];
    const sub = await api.create([
      { data: `${a}#Fragment`, comment: '  Explicit  ' },
      { data: b, comment: 'Over ps' },
      { data: `${c}#Kept`, comment: null },
      { data: d, comment: '' },
    ]);
    expect(sub.sources.map((s) => s.comment)).toEqual(['Explicit', 'Over ps', 'Kept', null]);
    expect(sub.sources[0]?.data).toBe(`${a}#Explicit`);
    // An empty fragment: sent back, the data keeps meaning "no comment" instead of picking up ps again.
    expect(sub.sources[3]?.data).toBe(`${d}#`);
    const lines = await plainLink(sub.token);
    expect(lines[0]).toBe(`${a}#Explicit`);
    expect(vmessJson(lines[1] ?? '')['ps']).toBe('Over ps');
    expect(lines[2]).toBe(`${c}#Kept`);
    expect(vmessJson(lines[3] ?? '')['ps']).toBe(vmessJson(d)['add']);
  });

  it('round-trips: the returned objects sent back to PUT keep every comment', async () => {
    const sub = await api.create([
      vmessJsonUri('Paris'),
      { data: vlessUri(), comment: 'Berlin' },
      { data: `${vmessJsonUri('Ignored')}`, comment: '' },
    ]);
    const body = sub.sources.map((s) => ({ data: s.data, comment: s.comment }));
    const res = await api.replace(sub.userToken, sub.token, body);
    expect(res.statusCode, res.body).toBe(200);
    const again = res.json<{ sources: Source[] }>().sources;
    expect(again.map((s) => [s.id, s.comment, s.data])).toEqual(sub.sources.map((s) => [s.id, s.comment, s.data]));
    // The data strings alone round-trip too.
    const replaced = await api.replace(
      sub.userToken,
      sub.token,
      sub.sources.map((s) => s.data),
    );
    expect(replaced.json<{ sources: Source[] }>().sources.map((s) => s.comment)).toEqual(['Paris', 'Berlin', null]);
  });

  it('resets a kept ps with PATCH comment null: the host is served and the data still round-trips', async () => {
    const uri = vmessJsonUri('Provider name');
    const sub = await api.create([uri]);
    const id = sub.sources[0]?.id as string;
    const patched = await api.config(sub.userToken, sub.token, { config_id: id, comment: null });
    expect(patched.statusCode, patched.body).toBe(204);
    const after = await api.get(sub.userToken, sub.token);
    expect(after.sources[0]).toMatchObject({ comment: null, data: `${uri}#` });
    expect(vmessJson((await plainLink(sub.token))[0] ?? '')['ps']).toBe(vmessJson(uri)['add']);
    const res = await api.replace(sub.userToken, sub.token, [after.sources[0]?.data]);
    expect(res.json<{ sources: Source[] }>().sources[0]).toMatchObject({ id, comment: null });
  });

  it('accepts a comment of 256 characters counted as code points', async () => {
    const sub = await api.create([{ data: vlessUri(), comment: '😀'.repeat(256) }]);
    expect([...(sub.sources[0]?.comment ?? '')]).toHaveLength(256);
  });

  it.each([
    ['longer than 256 characters', 'x'.repeat(257)],
    ['holding a control character', 'a\u0007b'],
    ['holding a newline inside', 'a\nb'],
    ['not a string', 42],
    ['an object', { text: 'x' }],
  ])('refuses an explicit comment %s: 400 validation_failed at body.sources.N.comment', async (_label, comment) => {
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, [vlessUri(), { data: vlessUri(), comment }]);
    expect(issuePaths(res)).toContain('body.sources.1.comment');
    expect(await api.storedRows(sub.token)).toEqual([]);
  });

  it.each([
    ['longer than 256 characters', 'p'.repeat(257)],
    ['holding a control character', 'a\u0001b'],
  ])('refuses a vmess ps %s that would become the comment: 400 at body.sources.N.data', async (_label, ps) => {
    const sub = await api.create();
    const res = await api.add(sub.userToken, sub.token, [vlessUri(), vmessJsonUri(ps)]);
    expect(issuePaths(res)).toEqual(['body.sources.1.data']);
    // An explicit comment replaces the unusable ps, so the same link is then accepted.
    const ok = await api.add(sub.userToken, sub.token, [{ data: vmessJsonUri(ps), comment: 'Fixed' }]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ sources: Source[] }>().sources.map((s) => s.comment)).toEqual(['Fixed']);
  });

  it('refuses a non-empty comment on an external URL or a reference with 400 comment_not_applicable', async () => {
    const target = await api.create();
    const sub = await api.create();
    const external = await api.add(sub.userToken, sub.token, [vlessUri(), { data: externalUrl(), comment: 'x' }]);
    expect(expectError(external, 400, 'comment_not_applicable').details).toEqual({
      source_type: 'external_url',
      index: 1,
    });
    const ref = await api.add(sub.userToken, sub.token, [{ data: internalRef(target.token), comment: 'y' }]);
    expect(expectError(ref, 400, 'comment_not_applicable').details).toEqual({
      source_type: 'internal_token',
      index: 0,
    });
    expect(await api.storedRows(sub.token)).toEqual([]);
  });

  it('accepts null or "" as the comment of an external URL or a reference (nothing to set)', async () => {
    const target = await api.create();
    const url = externalUrl();
    const sub = await api.create([
      { data: url, comment: '' },
      { data: internalRef(target.token), comment: null },
      { data: trojanUri(), comment: null },
    ]);
    expect(sub.sources.map((s) => [s.source_type, s.comment])).toEqual([
      ['external_url', null],
      ['internal_token', null],
      ['config', null],
    ]);
  });
});
