// The pure format choice: order of precedence, matching modes, case, multi-valued headers and rule validation.
import { describe, expect, it } from 'vitest';
import {
  chooseLink,
  compileRules,
  DEFAULT_FORMAT_RULES,
  validateRules,
  type FormatRule,
} from '../../src/modules/formats/format-rules.js';
import { AppError } from '../../src/http/errors.js';
import { chooseFor } from '../../src/modules/resolve/link-answer.js';

const rule = (id: string, fields: Partial<FormatRule>): FormatRule => ({
  id,
  header: 'user-agent',
  match: 'contains',
  value: id,
  case_sensitive: false,
  enabled: true,
  result: 'plain',
  ...fields,
});

const choose = (rules: FormatRule[], headers: Record<string, string | string[]>, extra = {}) =>
  chooseLink(compileRules(rules), { headers, ...extra });

describe('format choice', () => {
  it('takes block rules first, then path, query, the other rules in order, then base64', () => {
    const rules = [rule('a', { value: 'app' }), rule('b', { value: 'bad', result: 'block' })];
    expect(choose(rules, { 'user-agent': 'bad app' }, { pathFormat: 'xray' })).toEqual({ result: 'block', rule: 'b' });
    expect(choose(rules, { 'user-agent': 'app' }, { pathFormat: 'xray', queryFormat: 'sip008' })).toEqual({
      result: 'xray',
      rule: 'path',
    });
    expect(choose(rules, { 'user-agent': 'app' }, { queryFormat: 'clash' })).toEqual({
      result: 'mihomo',
      rule: 'query',
    });
    expect(choose(rules, { 'user-agent': 'my app' })).toEqual({ result: 'plain', rule: 'a' });
    expect(choose(rules, {})).toEqual({ result: 'base64', rule: 'default' });
  });

  it('matches contains, prefix, equals and regex, case-insensitively unless asked', () => {
    const headers = { 'user-agent': 'Clash-Verge/v2.0' };
    expect(choose([rule('c', { value: 'VERGE' })], headers).rule).toBe('c');
    expect(choose([rule('p', { match: 'prefix', value: 'clash' })], headers).rule).toBe('p');
    expect(choose([rule('p', { match: 'prefix', value: 'verge' })], headers).rule).toBe('default');
    expect(choose([rule('e', { match: 'equals', value: 'clash-verge/v2.0' })], headers).rule).toBe('e');
    expect(choose([rule('r', { match: 'regex', value: '^clash-\\w+/v\\d' })], headers).rule).toBe('r');
    expect(choose([rule('s', { value: 'clash', case_sensitive: true })], headers).rule).toBe('default');
    expect(choose([rule('s', { value: 'Clash', case_sensitive: true })], headers).rule).toBe('s');
  });

  it('reads repeated headers joined, absent headers as empty, and ignores disabled rules', () => {
    expect(choose([rule('x', { header: 'x-app', value: 'two' })], { 'x-app': ['one', 'two'] }).rule).toBe('x');
    expect(choose([rule('e', { match: 'regex', value: '^$' })], {}).rule).toBe('e');
    expect(choose([rule('d', { value: 'app', enabled: false })], { 'user-agent': 'app' }).rule).toBe('default');
  });

  it('routes real client User-Agents with the built-in rules', () => {
    const defaults = [...DEFAULT_FORMAT_RULES];
    expect(choose(defaults, { 'user-agent': 'HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box' }).rule).toBe(
      'hiddify',
    );
    expect(choose(defaults, { 'user-agent': 'SFM/1.12.0 (sing-box 1.12.0)' }).result).toBe('sing-box');
    expect(choose(defaults, { accept: 'text/html', 'user-agent': 'clash.meta' }).result).toBe('page');
  });

  it('refuses an unknown format name with the list of valid names', () => {
    try {
      choose([], {}, { pathFormat: 'yaml' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('unknown_format');
    }
  });
});

describe('rule validation', () => {
  it('lower-cases header names and stores clash as mihomo', () => {
    const [valid] = validateRules([rule('a', { header: 'User-Agent', result: 'clash' as FormatRule['result'] })]);
    expect(valid).toMatchObject({ header: 'user-agent', result: 'mihomo' });
  });

  it('lists every repeated or reserved id and bad regex at once', () => {
    try {
      validateRules([rule('a', {}), rule('a', {}), rule('query', {}), rule('r', { match: 'regex', value: '[' })]);
      expect.unreachable();
    } catch (error) {
      const details = (error as AppError).details as { issues: Array<{ path: string }> };
      expect(details.issues.map((i) => i.path)).toEqual([
        'body.rules[1].id',
        'body.rules[2].id',
        'body.rules[3].value',
      ]);
    }
  });

  it('accepts nested quantifiers, which RE2 matches in linear time', () => {
    const [valid] = validateRules([rule('n', { match: 'regex', value: '([a-z]|[a-z0-9])*!', result: 'block' })]);
    expect(choose([valid!], { 'user-agent': 'a'.repeat(24) }).rule).toBe('default');
    expect(choose([valid!], { 'user-agent': 'abc!' }).rule).toBe('n');
  });

  it.each([
    ['(a)\\1', 'backreferences are not supported'],
    ['^(?=.*clash)', 'lookahead and lookbehind are not supported'],
    ['(?<!x)clash', 'lookahead and lookbehind are not supported'],
  ])('refuses %s with invalid_pattern naming the rule and the reason', (value, reason) => {
    try {
      validateRules([rule('fine', { match: 'regex', value: '^sfa' }), rule('bad', { match: 'regex', value })]);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_pattern', details: { index: 1, id: 'bad', value, reason } });
      expect((error as AppError).message).toContain(reason);
    }
  });

  it('refuses a header name that is not an HTTP token in a stored list', () => {
    expect(() => validateRules([rule('h', { header: 'user agent' })])).toThrowError(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });
});

describe('reading headers', () => {
  it.each(['__proto__', 'constructor'])(
    'reads a rule on %s as an absent header unless the request sends it',
    (header) => {
      const rules = validateRules([
        rule('own', { header, value: 'x' }),
        rule('empty', { header, match: 'regex', value: '^$', result: 'sip008' }),
      ]);
      expect(choose(rules, { 'user-agent': 'x' })).toEqual({ result: 'sip008', rule: 'empty' });
      const sent = Object.defineProperty({}, header, { value: 'x', enumerable: true });
      expect(choose(rules, sent)).toEqual({ result: 'plain', rule: 'own' });
    },
  );

  it('reads at most the first 512 characters of a header', () => {
    const padded = (tail: string) => ({ 'user-agent': 'a'.repeat(500) + tail });
    for (const match of ['contains', 'regex'] as const) {
      const rules = [rule('r', { match, value: 'needle' })];
      expect(choose(rules, padded('needle'))?.rule).toBe('r');
      expect(choose(rules, padded('xxxxxxxneedle'))?.rule).toBe('default');
    }
    expect(choose([rule('e', { match: 'equals', value: 'a'.repeat(256) })], padded('')).rule).toBe('default');
  });
});

describe('remembered format choices', () => {
  const settingsOf = (rules: FormatRule[]) => ({ rules: compileRules(rules) });

  it('answers each header set as a fresh choice would, and shares the choice of one set', () => {
    const settings = settingsOf([rule('a', { value: 'app' }), rule('x', { header: 'x-client', value: 'x' })]);
    const app = chooseFor(settings, { headers: { 'user-agent': 'app/1' } });
    expect(app).toEqual({ result: 'plain', rule: 'a' });
    expect(chooseFor(settings, { headers: { 'user-agent': 'app/1' } })).toBe(app);
    // Every header a rule reads, and the path and query format, are part of what is remembered.
    expect(chooseFor(settings, { headers: { 'user-agent': 'other', 'x-client': 'x' } })).toEqual({
      result: 'plain',
      rule: 'x',
    });
    expect(chooseFor(settings, { headers: { 'user-agent': 'other' } })).toEqual({ result: 'base64', rule: 'default' });
    expect(chooseFor(settings, { headers: { 'user-agent': 'app/1' }, pathFormat: 'xray' })).toEqual({
      result: 'xray',
      rule: 'path',
    });
    expect(chooseFor(settings, { headers: { 'user-agent': 'app/1' }, queryFormat: 'xray' })).toEqual({
      result: 'xray',
      rule: 'query',
    });
  });

  it('starts afresh for a new rule list, and never remembers an unknown format', () => {
    const before = chooseFor(settingsOf([rule('a', { value: 'app' })]), { headers: { 'user-agent': 'app' } });
    const after = settingsOf([rule('a', { value: 'app', result: 'xray' })]);
    expect(before.result).toBe('plain');
    expect(chooseFor(after, { headers: { 'user-agent': 'app' } })).toEqual({ result: 'xray', rule: 'a' });
    for (let i = 0; i < 2; i++) {
      expect(() => chooseFor(after, { headers: {}, pathFormat: 'nope' })).toThrow(AppError);
    }
  });

  it('chooses a repeated or very long header set afresh each time, with the same answer', () => {
    const settings = settingsOf([rule('a', { value: 'app' })]);
    const repeated = { 'user-agent': ['app', 'app'] };
    expect(chooseFor(settings, { headers: repeated })).toEqual({ result: 'plain', rule: 'a' });
    expect(chooseFor(settings, { headers: repeated })).not.toBe(chooseFor(settings, { headers: repeated }));
    const long = { 'user-agent': `app ${'x'.repeat(2000)}` };
    expect(chooseFor(settings, { headers: long })).toEqual({ result: 'plain', rule: 'a' });
    expect(chooseFor(settings, { headers: long })).not.toBe(chooseFor(settings, { headers: long }));
  });
});
