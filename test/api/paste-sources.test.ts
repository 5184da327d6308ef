// POST .../sources with {"text": ...} (docs/api.md "Paste many"): a pasted block, each line added or skipped with a
// reason, in both scopes; one transaction and one audit entry with the counts.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import {
  approvedPair,
  internalRef,
  ssUri,
  trojanUri,
  vlessUri,
  vmessJsonUri,
  type Subscription,
} from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';

interface LineReport {
  line: number;
  data: string;
  status: 'added' | 'skipped';
  source_id: string | null;
  reason: string | null;
  message: string | null;
}
interface Report {
  added: number;
  skipped: number;
  base64: boolean;
  lines: LineReport[];
  subscription: Subscription;
}

const SUBS = '/api/v1/subs';

describeEachDatabase('paste many sources', (kind) => {
  const t = useTestApp(kind, {
    MAX_SOURCES_PER_SUBSCRIPTION: '5',
    ADMIN_SECRET: 'paste-secret-of-at-least-32-characters',
  });

  async function newSub(app: TestApp, sources: string[] = []) {
    const user = await app.newUser();
    const sub = expectStatus(
      await app.call('POST', SUBS, { token: user.token, body: { name: 'paste', sources } }),
      201,
    ).json<Subscription>();
    return { user, sub, url: `${SUBS}/${sub.token}/sources` };
  }
  const paste = (url: string, token: string, text: string) => t.call('POST', url, { token, body: { text } });
  const brief = (report: Report) => report.lines.map((l) => [l.line, l.status, l.reason]);

  it('adds the valid lines and reports each invalid one with its reason, in order (201)', async () => {
    const { user, sub, url } = await newSub(t, [trojanUri()]);
    const [a, b, held] = [vlessUri(), ssUri(), sub.sources[0]!.data];
    const text = [
      a,
      '',
      'not a source at all',
      'ftp://files.example.org/list',
      'https://user:pw@feed.example.org/sub',
      held,
      a,
      `${b}#Server ${'x'.repeat(300)}`,
      '   ',
      `${b}#Tokyo`,
    ].join('\n');
    const res = expectStatus(await paste(url, user.token, text), 201);
    const report = res.json<Report>();
    expect(brief(report)).toEqual([
      [1, 'added', null],
      [3, 'skipped', 'invalid_source'],
      [4, 'skipped', 'invalid_source'],
      [5, 'skipped', 'invalid_url'],
      [6, 'skipped', 'duplicate'],
      [7, 'skipped', 'duplicate'],
      [8, 'skipped', 'invalid_comment'],
      [10, 'added', null],
    ]);
    expect(report).toMatchObject({ added: 2, skipped: 6, base64: false });
    expect(report.lines[4]?.message).toBe('already in the subscription');
    expect(report.lines[5]?.message).toBe('same as line 1');
    expect(report.lines.every((l) => (l.status === 'added') === (l.source_id !== null))).toBe(true);
    expect(report.lines.every((l) => (l.status === 'skipped') === (typeof l.message === 'string'))).toBe(true);
    // The subscription afterwards: the two new lines appended in order, with the ids the report gave.
    expect(report.subscription.sources.map((s) => s.id)).toEqual([
      sub.sources[0]!.id,
      report.lines[0]!.source_id,
      report.lines[7]!.source_id,
    ]);
    expect(report.subscription.sources.at(-1)?.comment).toBe('Tokyo');
    expect(report.subscription.sources.map((s) => s.order_index)).toEqual([0, 1, 2]);
  });

  it('decodes a base64 block of a URI list first, splits CRLF and CR, and keeps unicode comments', async () => {
    const { user, url } = await newSub(t);
    const lines = [`${vlessUri()}#${encodeURIComponent('東京 🚀')}`, `${trojanUri()}#Zürich`, vmessJsonUri('Москва')];
    const encoded = Buffer.from(lines.join('\r\n')).toString('base64');
    // Wrapped at 76 characters, as many panels send it.
    const wrapped = encoded.replace(/(.{76})/g, '$1\n');
    const report = expectStatus(await paste(url, user.token, wrapped), 201).json<Report>();
    expect(report).toMatchObject({ added: 3, skipped: 0, base64: true });
    expect(report.subscription.sources.map((s) => s.comment)).toEqual(['東京 🚀', 'Zürich', 'Москва']);

    const next = await newSub(t);
    const mixed = `${vlessUri()}\r\n${trojanUri()}\r${ssUri()}\n`;
    const plain = expectStatus(await paste(next.url, next.user.token, mixed), 201).json<Report>();
    expect(brief(plain)).toEqual([
      [1, 'added', null],
      [2, 'added', null],
      [3, 'added', null],
    ]);
    expect(plain.base64).toBe(false);
  });

  it('skips a line with a control character inside it, while blanks and the line breaks themselves are fine', async () => {
    const { user, url } = await newSub(t);
    const text = `${vlessUri()}\n${trojanUri()}\u0001x\nhttps://feed.example.org/a\tb\n\n${ssUri()}\u007f#x`;
    const report = expectStatus(await paste(url, user.token, text), 201).json<Report>();
    expect(brief(report)).toEqual([
      [1, 'added', null],
      [2, 'skipped', 'control_characters'],
      [3, 'skipped', 'control_characters'],
      [5, 'skipped', 'control_characters'],
    ]);
    expect(report.subscription.sources).toHaveLength(1);
    // NUL is refused in every JSON string of the API, a pasted block included.
    const nul = await paste(url, user.token, `${vlessUri()}\u0000`);
    expect(expectError(nul, 400, 'validation_failed').details).toMatchObject({ issues: [{ path: 'body.text' }] });
  });

  it('answers 200 with the report, and changes nothing, when no line could be added', async () => {
    const { user, sub, url } = await newSub(t, [trojanUri()]);
    const res = expectStatus(await paste(url, user.token, `${sub.sources[0]!.data}\nnope`), 200);
    const report = res.json<Report>();
    expect(report).toMatchObject({ added: 0, skipped: 2 });
    expect(brief(report)).toEqual([
      [1, 'skipped', 'duplicate'],
      [2, 'skipped', 'invalid_source'],
    ]);
    expect(report.subscription.updated_at).toBe(sub.updated_at);
  });

  it('skips the lines past MAX_SOURCES_PER_SUBSCRIPTION as limit_reached (5 here)', async () => {
    const { user, url } = await newSub(t, [trojanUri(), trojanUri()]);
    const text = Array.from({ length: 5 }, () => vlessUri()).join('\n');
    const report = expectStatus(await paste(url, user.token, text), 201).json<Report>();
    expect(report.lines.map((l) => l.reason)).toEqual([null, null, null, 'limit_reached', 'limit_reached']);
    expect(report.subscription.sources).toHaveLength(5);
    const again = expectStatus(await paste(url, user.token, vlessUri()), 200).json<Report>();
    expect(again.lines[0]?.reason).toBe('limit_reached');
  });

  it('classifies references as a single source would: its own link is circular, an unknown token invalid', async () => {
    const { user, sub, url } = await newSub(t);
    const other = await newSub(t, [vlessUri()]);
    const text = [internalRef(other.sub.token), internalRef(sub.token), internalRef('Q'.repeat(43))].join('\n');
    const report = expectStatus(await paste(url, user.token, text), 201).json<Report>();
    expect(brief(report)).toEqual([
      [1, 'added', null],
      [2, 'skipped', 'circular_reference'],
      [3, 'skipped', 'invalid_source'],
    ]);
    expect(report.lines[2]?.message).toBe('referenced subscription not found');
    expect(report.subscription.sources.map((s) => s.source_type)).toEqual(['internal_token']);
  });

  it('writes one audit entry with the counts for the whole paste', async () => {
    const { user, url } = await newSub(t);
    expectStatus(await paste(url, user.token, `${vlessUri()}\n${trojanUri()}\nbad line`), 201);
    const page = expectStatus(await t.admin('GET', `/audit?action=subscription.update&limit=100`), 200).json<{
      entries: Array<{ target: string; summary: Record<string, unknown> }>;
    }>();
    const mine = page.entries.filter((e) => e.summary['user_id'] === user.userId);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.summary).toMatchObject({ sources_added: 2, lines_skipped: 1 });
  });

  it('refuses empty text, both text and sources, neither, and more than 1000 lines', async () => {
    const { user, url } = await newSub(t);
    const issues = (res: Awaited<ReturnType<typeof paste>>) =>
      (expectError(res, 400, 'validation_failed').details as { issues: Array<{ path: string }> }).issues.map(
        (i) => i.path,
      );
    expect(issues(await paste(url, user.token, ''))).toEqual(['body.text']);
    expect(issues(await paste(url, user.token, ' \r\n \n\t\n'))).toEqual(['body.text']);
    const both = await t.call('POST', url, { token: user.token, body: { text: vlessUri(), sources: [vlessUri()] } });
    expect(issues(both)).toEqual(['body']);
    expect(issues(await t.call('POST', url, { token: user.token, body: {} }))).toEqual(['body']);
    const many = Array.from({ length: 1001 }, (_, i) => `line ${i}`).join('\n');
    expectError(await paste(url, user.token, many), 413, 'too_many_sources');
    const wrongType = await t.call('POST', url, { token: user.token, body: { text: 42 } });
    expect(issues(wrongType)).toEqual(['body.text']);
  });

  it('works in the provider scope too', async () => {
    const { provider, subs } = await approvedPair(t);
    const created = expectStatus(
      await t.call('POST', subs, { token: provider.token, body: { name: 'managed' } }),
      201,
    ).json<Subscription>();
    const res = await t.call('POST', `${subs}/${created.token}/sources`, {
      token: provider.token,
      body: { text: `${vlessUri()}\nnope` },
    });
    const report = expectStatus(res, 201).json<Report>();
    expect(report).toMatchObject({ added: 1, skipped: 1 });
    expect(report.subscription.provider_name).toBe(provider.name);
  });
});
