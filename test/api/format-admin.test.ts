// The admin API for format rules and templates (docs/admin-api.md, Format rules, templates and settings): defaults, validation, all-or-nothing replacement, cache drop.
import { afterEach, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { describeEachDatabase, useTestApp } from '../support/harness.js';
import { subsApi, trojanUri, vlessUri, wireguardUri } from '../support/factories.js';
import { expectError } from '../support/expect.js';
import { writeTemplate } from '../../src/modules/formats/formats.store.js';
import { BUILTIN_TEMPLATES } from '../../src/formats/render/builtin-templates.js';

const DEFAULT_IDS = ['browser', 'hiddify', 'mihomo', 'clash', 'sing-box', 'xray-apps'];

const rule = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  header: 'user-agent',
  match: 'contains',
  value: id,
  result: 'plain',
  ...extra,
});

describeEachDatabase('admin format rules', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'rules-secret-of-at-least-32-characters' });

  afterEach(async () => {
    expect((await t.admin('DELETE', '/format-rules')).statusCode).toBe(200);
  });

  it('lists the built-in defaults in order', async () => {
    const res = await t.admin('GET', '/format-rules');
    expect(res.statusCode).toBe(200);
    const { rules } = res.json<{ rules: Array<Record<string, unknown>> }>();
    expect(rules.map((r) => r['id'])).toEqual(DEFAULT_IDS);
    expect(rules[0]).toEqual({
      id: 'browser',
      header: 'accept',
      match: 'contains',
      value: 'text/html',
      case_sensitive: false,
      enabled: true,
      result: 'page',
    });
    expect(rules.find((r) => r['id'] === 'xray-apps')).toMatchObject({ enabled: false, result: 'xray' });
    expect(rules.find((r) => r['id'] === 'clash')).toMatchObject({ match: 'prefix', value: 'clash', result: 'mihomo' });
  });

  it('replaces the whole list, fills defaults, stores clash as mihomo, and DELETE restores the defaults', async () => {
    const put = await t.admin('PUT', '/format-rules', {
      rules: [rule('one', { result: 'clash', header: 'User-Agent' }), rule('two', { case_sensitive: true })],
    });
    expect(put.statusCode, put.body).toBe(200);
    const expected = [
      { ...rule('one'), header: 'user-agent', result: 'mihomo', case_sensitive: false, enabled: true },
      { ...rule('two'), case_sensitive: true, enabled: true },
    ];
    expect(put.json()).toEqual({ rules: expected });
    expect((await t.admin('GET', '/format-rules')).json()).toEqual({ rules: expected });
    const restored = await t.admin('DELETE', '/format-rules');
    expect(restored.json<{ rules: Array<{ id: string }> }>().rules.map((r) => r.id)).toEqual(DEFAULT_IDS);
  });

  it('accepts an empty list: every request then gets base64 by default', async () => {
    expect((await t.admin('PUT', '/format-rules', { rules: [] })).json()).toEqual({ rules: [] });
    const sub = await subsApi(t).create([vlessUri()]);
    const res = await t.call('GET', `/sub/${sub.token}`, { headers: { accept: 'text/html' } });
    expect([res.headers['subweave-format'], res.headers['subweave-rule']]).toEqual(['base64', 'default']);
  });

  it.each([
    ['a value over 256 characters', [rule('long', { value: 'x'.repeat(257) })]],
    ['an empty value', [rule('empty', { value: '' })]],
    ['an unknown match', [rule('m', { match: 'suffix' })]],
    ['an unknown result', [rule('r', { result: 'json' })]],
    ['a bad id', [rule('Has Space')]],
    ['a bad header name', [rule('h', { header: 'user agent' })]],
    ['an unknown field', [rule('u', { extra: 1 })]],
    ['a missing field', [{ id: 'x', header: 'accept', match: 'contains', result: 'page' }]],
    ['a repeated id', [rule('same'), rule('same')]],
    ['a reserved id', [rule('default')]],
    ['a regex that does not compile', [rule('re', { match: 'regex', value: '(unclosed' })]],
    ['a non-array', 'nope'],
  ])('refuses %s with validation_failed and changes nothing', async (_label, rules) => {
    const res = await t.admin('PUT', '/format-rules', { rules });
    expectError(res, 400, 'validation_failed');
    const now = (await t.admin('GET', '/format-rules')).json<{ rules: Array<{ id: string }> }>();
    expect(now.rules.map((r) => r.id)).toEqual(DEFAULT_IDS);
  });

  it('matches a pattern that backtracks catastrophically elsewhere in time linear in the User-Agent', async () => {
    // A backtracking engine takes minutes on this 28-byte User-Agent; RE2 answers at once.
    const put = await t.admin('PUT', '/format-rules', {
      rules: [rule('bang', { match: 'regex', value: '([a-z]|[a-z0-9])*!', result: 'block' })],
    });
    expect(put.statusCode, put.body).toBe(200);
    const sub = await subsApi(t).create([vlessUri()]);
    const slow = await t.call('GET', `/sub/${sub.token}`, { headers: { 'user-agent': 'a'.repeat(27) + '\u00ff' } });
    expect([slow.statusCode, slow.headers['subweave-rule']]).toEqual([200, 'default']);
    expectError(await t.call('GET', `/sub/${sub.token}`, { headers: { 'user-agent': 'abc!' } }), 403, 'client_blocked');
  });

  it.each([
    ['(clash)\\1', 'backreferences are not supported'],
    ['^(?=.*meta)clash', 'lookahead and lookbehind are not supported'],
    ['(?<!x)clash', 'lookahead and lookbehind are not supported'],
  ])('refuses %s with invalid_pattern and changes nothing', async (value, reason) => {
    const res = await t.admin('PUT', '/format-rules', {
      rules: [rule('fine', { match: 'regex', value: '^sfa' }), rule('bad', { match: 'regex', value })],
    });
    const envelope = expectError(res, 400, 'invalid_pattern');
    expect(envelope.details).toEqual({ index: 1, id: 'bad', value, reason });
    expect(envelope.message).toContain('RE2');
    const now = (await t.admin('GET', '/format-rules')).json<{ rules: Array<{ id: string }> }>();
    expect(now.rules.map((r) => r.id)).toEqual(DEFAULT_IDS);
  });

  it.each(['__proto__', 'constructor'])('serves the link with a rule on the header %s', async (header) => {
    const put = await t.admin('PUT', '/format-rules', {
      rules: [rule('proto', { header, match: 'regex', value: '^x$', result: 'block' }), rule('ua', { value: 'app' })],
    });
    expect(put.statusCode, put.body).toBe(200);
    const sub = await subsApi(t).create([vlessUri()]);
    const res = await t.call('GET', `/sub/${sub.token}`, { headers: { 'user-agent': 'app' } });
    expect([res.statusCode, res.headers['subweave-rule']]).toEqual([200, 'ua']);
    const preview = await t.call('GET', `/api/v1/subs/${sub.token}/preview?user_agent=app`, { token: sub.userToken });
    expect(preview.json()).toMatchObject({ format: 'plain', rule: 'ua' });
  });

  it('names the field when a header name is not an HTTP token', async () => {
    const res = await t.admin('PUT', '/format-rules', { rules: [rule('h', { header: 'user:agent' })] });
    const issues = (expectError(res, 400, 'validation_failed').details as { issues: Array<{ path: string }> }).issues;
    expect(issues.map((i) => i.path)).toContain('body.rules.0.header');
  });

  it('refuses more than 100 rules', async () => {
    const rules = Array.from({ length: 101 }, (_, i) => rule(`r${i}`));
    expectError(await t.admin('PUT', '/format-rules', { rules }), 400, 'validation_failed');
  });

  it('previews the choice for given headers with the rules in force or a draft list, saving nothing', async () => {
    const preview = async (body: Record<string, unknown>) => {
      const res = await t.admin('POST', '/format-rules/preview', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ format: string; rule: string }>();
    };
    expect(await preview({ user_agent: 'ClashMetaForAndroid/2.11' })).toEqual({ format: 'mihomo', rule: 'mihomo' });
    expect(await preview({ user_agent: 'SFA/1.11.4 (1114; sing-box 1.11.4)' })).toEqual({
      format: 'sing-box-1.11',
      rule: 'sing-box',
    });
    expect(await preview({ accept: 'text/html', user_agent: 'Mozilla/5.0' })).toEqual({
      format: 'page',
      rule: 'browser',
    });
    expect(await preview({ user_agent: 'curl/8.0' })).toEqual({ format: 'base64', rule: 'default' });
    const draft = [rule('curl', { result: 'block' })];
    expect(await preview({ user_agent: 'curl/8.0', rules: draft })).toEqual({ format: 'block', rule: 'curl' });
    const rules = (await t.admin('GET', '/format-rules')).json<{ rules: Array<{ id: string }> }>().rules;
    expect(rules.map((r) => r.id)).toEqual(DEFAULT_IDS);
    const bad = await t.admin('POST', '/format-rules/preview', { rules: [rule('a'), rule('a')] });
    const issues = (expectError(bad, 400, 'validation_failed').details as { issues: Array<{ path: string }> }).issues;
    expect(issues.map((i) => i.path)).toEqual(['body.rules[1].id']);
  });

  it('needs the admin signature', async () => {
    expectError(await t.call('GET', '/api/v1/admin/format-rules'), 401, 'missing_signature');
  });
});

/** The built-in sing-box template with an `extra` field holding `json`. */
const BUILTIN_SING_BOX_WITH = (json: string): string =>
  `{"extra": ${json}, ${JSON.stringify(JSON.parse(BUILTIN_TEMPLATES['sing-box'])).slice(1)}`;

describeEachDatabase('admin templates', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'templates-secret-of-at-least-32-characters' });

  afterEach(async () => {
    for (const format of ['mihomo', 'sing-box', 'xray']) await t.admin('DELETE', `/templates/${format}`);
  });

  it.each(['mihomo', 'sing-box', 'xray'])('answers the built-in %s template', async (format) => {
    const res = await t.admin('GET', `/templates/${format}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ format: string; template: string; builtin: boolean }>();
    expect(body.format).toBe(format);
    expect(body.builtin).toBe(true);
    expect(body.template.length).toBeGreaterThan(10);
  });

  it('replaces a template, serves it at once, and restores the built-in one', async () => {
    const builtin = (await t.admin('GET', '/templates/mihomo')).json<{ template: string }>().template;
    const sub = await subsApi(t).create([vlessUri() + '#a']);
    const before = await t.call('GET', `/sub/${sub.token}/mihomo`);
    const custom = builtin.replace('mixed-port: 7890', 'mixed-port: 7891');
    expect(custom).not.toBe(builtin);
    const put = await t.admin('PUT', '/templates/clash', { template: custom });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ format: 'mihomo', template: custom, builtin: false });
    const after = await t.call('GET', `/sub/${sub.token}/mihomo`);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContain('mixed-port: 7891');
    expect((await t.admin('GET', '/templates/mihomo')).json()).toMatchObject({ builtin: false, template: custom });
    const reset = await t.admin('DELETE', '/templates/mihomo');
    expect(reset.json()).toEqual({ format: 'mihomo', template: builtin, builtin: true });
    expect((await t.call('GET', `/sub/${sub.token}/mihomo`)).headers.etag).toBe(before.headers.etag);
  });

  it.each([
    ['sing-box', '{'],
    ['xray', '[not json'],
    ['sing-box', '{}'],
  ])('refuses a %s template that does not parse or lost its insertion points: %j', async (format, template) => {
    const res = await t.admin('PUT', `/templates/${format}`, { template });
    expectError(res, 400, 'validation_failed');
    expect((await t.admin('GET', `/templates/${format}`)).json()).toMatchObject({ builtin: true });
  });

  it('answers 400 unknown_format for an unknown name and 404 for formats without a template', async () => {
    expectError(await t.admin('GET', '/templates/json'), 400, 'unknown_format');
    for (const format of ['sip008', 'base64', 'plain']) {
      expectError(await t.admin('GET', `/templates/${format}`), 404, 'not_found');
    }
  });

  const deepJson = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

  it.each([
    ['sing-box', 'json', 33],
    ['sing-box', 'json', 20_000],
    ['xray', 'json', 5_000],
    ['mihomo', 'flow', 20_000],
    ['mihomo', 'block', 60_000],
  ])(
    'refuses a %s template nesting deeper than 32 (%s, %i levels) with invalid_template',
    async (format, shape, depth) => {
      const builtin = (await t.admin('GET', `/templates/${format}`)).json<{ template: string }>().template;
      const template =
        format === 'mihomo'
          ? `${builtin}extra: ${shape === 'flow' ? deepJson(depth) : `\n${'- '.repeat(depth)}x`}\n`
          : builtin.replace(/^\{/, `{"extra": ${deepJson(depth - 1)},`);
      const res = await t.admin('PUT', `/templates/${format}`, { template });
      const envelope = expectError(res, 400, 'invalid_template');
      expect(envelope.details).toEqual({ format, reason: 'it nests deeper than 32 levels' });
      expect((await t.admin('GET', `/templates/${format}`)).json()).toMatchObject({ builtin: true });
    },
  );

  it('accepts a template nesting exactly 32 levels', async () => {
    const builtin = (await t.admin('GET', '/templates/sing-box')).json<{ template: string }>().template;
    const res = await t.admin('PUT', '/templates/sing-box', {
      template: builtin.replace(/^\{/, `{"extra": ${deepJson(31)},`),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('keeps xray configs valid JSON whatever text the template holds', async () => {
    const builtin = (await t.admin('GET', '/templates/xray')).json<{ template: string }>().template;
    const forged = ['\u0000subweave-name\u0000', '\u0000subweave-outbound\u0000'];
    const template = builtin.replace(
      /^\{/,
      `{"remarks": ${JSON.stringify(forged[0])}, "x": ${JSON.stringify(forged)},`,
    );
    const put = await t.admin('PUT', '/templates/xray', { template });
    expect(put.statusCode, put.body).toBe(200);
    const sub = await subsApi(t).create([vlessUri() + '#one', trojanUri() + '#two']);
    const res = await t.call('GET', `/sub/${sub.token}/xray`);
    expect(res.statusCode).toBe(200);
    const configs = JSON.parse(res.body) as Array<{ remarks: string; x: string[]; outbounds: Array<{ tag: string }> }>;
    expect(configs.map((c) => c.remarks)).toEqual(['one', 'two']);
    expect(configs[0]!.x).toEqual(forged);
    expect(configs[1]!.outbounds.map((o) => o.tag)).toEqual(['proxy', 'direct', 'block']);
  });

  it('serves the built-in template, not a 500, for a stored template that no longer validates', async () => {
    // As if stored before templates were checked for depth: written straight to the database.
    const deep = BUILTIN_SING_BOX_WITH(deepJson(5_000));
    await t.context.changes.write(async (trx, record) => {
      await writeTemplate(trx, 'sing-box', deep, new Date().toISOString());
      record({ kind: 'templates' });
    });
    const sub = await subsApi(t).create([vlessUri() + '#a', wireguardUri() + '#wg']);
    const res = await t.call('GET', `/sub/${sub.token}/sing-box`);
    expect(res.statusCode).toBe(200);
    const document = JSON.parse(res.body) as { outbounds: Array<{ tag: string }>; extra?: unknown };
    expect(document.extra).toBeUndefined();
    expect(document.outbounds.map((o) => o.tag)).toContain('Proxy');
    expect((await t.admin('GET', '/templates/sing-box')).json()).toMatchObject({ builtin: true });
    const mihomo = await t.call('GET', `/sub/${sub.token}/mihomo`);
    expect(parseYaml(mihomo.body)).toMatchObject({ 'proxy-groups': expect.any(Array) });
  });
});
