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

  it('refuses a regex with nested quantifiers as unsafe', () => {
    expect(() => validateRules([rule('n', { match: 'regex', value: '(a*)*b' })])).toThrowError(
      expect.objectContaining({ code: 'unsafe_pattern' }),
    );
  });
});
