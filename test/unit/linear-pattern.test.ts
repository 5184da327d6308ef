// The one pattern engine: RE2 syntax, refusals with reasons, replacement with groups, inputs that break backtracking.
import { describe, expect, it } from 'vitest';
import { compile, InvalidPatternError, MAX_PATTERN_LENGTH } from '../../src/shared/linear-pattern.js';

const refusal = (pattern: string, options = {}): InvalidPatternError => {
  try {
    compile(pattern, options);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPatternError);
    return error as InvalidPatternError;
  }
  throw new Error(`${pattern} compiled`);
};

describe('linear patterns', () => {
  it('tests anywhere in the input, case-insensitively when asked', () => {
    expect(compile('^clash[.-]?meta').test('clash.meta/1.18')).toBe(true);
    expect(compile('mihomo').test('Mihomo/1.18')).toBe(false);
    expect(compile('mihomo', { ignoreCase: true }).test('Mihomo/1.18')).toBe(true);
    expect(compile('^$').test('')).toBe(true);
    expect(compile('\\p{Han}+').test('香港 01')).toBe(true);
  });

  it('answers patterns that make a backtracking engine run for hours, on input that does not match', () => {
    // Each of these takes a backtracking engine exponential time in the input; RE2 takes linear.
    for (const pattern of ['([a-z]|[a-z0-9])*!', '(a+)+$', '(a|aa)*c', '^(\\w+\\s?)*$']) {
      expect(compile(pattern).test(`${'a'.repeat(4096)}\u0000`)).toBe(false);
    }
  });

  it.each([
    ['(a)\\1', 'backreferences are not supported'],
    ['(?<n>a)\\k<n>', 'backreferences are not supported'],
    ['a(?=b)', 'lookahead and lookbehind are not supported'],
    ['a(?!b)', 'lookahead and lookbehind are not supported'],
    ['(?<=a)b', 'lookahead and lookbehind are not supported'],
    ['(?<!a)b', 'lookahead and lookbehind are not supported'],
    ['(?>a+)b', 'atomic groups are not supported'],
    ['a++b', 'possessive quantifiers are not supported'],
  ])('refuses %s as unsupported: %s', (pattern, reason) => {
    expect(refusal(pattern)).toMatchObject({ pattern, reason, unsupported: true });
  });

  it.each(['(unclosed', '[a-', 'a)', 'x{2,1}', '*a', 'a\\'])('refuses the malformed %s with RE2 reason', (pattern) => {
    const error = refusal(pattern);
    expect(error.unsupported).toBe(false);
    expect(error.reason.length).toBeGreaterThan(5);
    expect(error.message).toContain(error.reason);
  });

  it('refuses patterns over the limit, 256 characters unless told', () => {
    expect(compile('a'.repeat(MAX_PATTERN_LENGTH)).source).toHaveLength(256);
    expect(refusal('a'.repeat(257)).reason).toBe('it is longer than 256 characters');
    expect(refusal('a'.repeat(11), { maxLength: 10 }).unsupported).toBe(false);
  });

  it('replaces every match with $0, $&, $1..$9 and $$', () => {
    const pattern = compile('(\\w+)@(\\w+)');
    expect(pattern.groups).toBe(2);
    expect(pattern.replace('a@b, c@d', '$2 at $1 ($0|$&) $$5')).toBe('b at a (a@b|a@b) $5, d at c (c@d|c@d) $5');
    // A group the pattern lacks, or one that did not take part, is empty; other `$` text stays.
    expect(compile('(x)?y').replace('y', '[$1|$9|$x|$]')).toBe('[||$x|$]');
    expect(compile('(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)(\\d)').replace('0123456789', '$9$10')).toBe('800');
  });

  it('replaces empty matches between characters, and keeps surrogate pairs whole', () => {
    expect(compile('x*').replace('abc', '-')).toBe('-a-b-c-');
    expect(compile('^').replace('abc', '> ')).toBe('> abc');
    expect(compile('🇺🇸\\s*').replace('🇺🇸 US 01 😀', '')).toBe('US 01 😀');
    expect(compile('no').replace('unchanged', 'x')).toBe('unchanged');
  });
});
