// Every pattern an admin or user stores runs here, on RE2 semantics, so matching is linear in the input (docs/security.md).
import { RE2JS } from 're2js';

/** The longest pattern a stored transform may hold; format rules keep their own limit. */
export const MAX_PATTERN_LENGTH = 256;

/** Why a pattern is refused; `unsupported` when it is a regular expression, just not one RE2 runs. */
export class InvalidPatternError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
    readonly unsupported: boolean,
  ) {
    super(`The pattern is not valid: ${reason}.`);
    this.name = 'InvalidPatternError';
  }
}

export interface LinearPattern {
  readonly source: string;
  /** Capturing groups, so a replacement can be checked against them. */
  readonly groups: number;
  /** True when the pattern matches anywhere in `input`. */
  test(input: string): boolean;
  /**
   * `input` with every match replaced: `$0` and `$&` are the match, `$1`..`$9` a group (empty when it did not take
   * part), `$$` is `$`; anything else is literal. Once the replacements written reach `limit` code units, later
   * matches are replaced by nothing: a short pattern matching often cannot make a short name huge.
   */
  replace(input: string, replacement: string, limit?: number): string;
}

/** Perl features RE2 leaves out on purpose, with the words a person needs; RE2's own message is vaguer for these. */
const UNSUPPORTED: readonly [RegExp, string][] = [
  [/\\[1-9]|\\k</, 'backreferences are not supported'],
  [/\(\?<?[=!]/, 'lookahead and lookbehind are not supported'],
  [/\(\?>/, 'atomic groups are not supported'],
  [/[*+?}]\+/, 'possessive quantifiers are not supported'],
];

/** RE2 errors that mean the pattern is malformed in any dialect, not merely outside RE2's. */
const MALFORMED = new Set([
  'missing closing )',
  'missing closing ]',
  'unexpected )',
  'trailing backslash at end of expression',
  'missing argument to repetition operator',
  'invalid nested repetition operator',
  'invalid character class range',
  'invalid repeat count',
  'duplicate capture group name',
]);

export function compile(
  pattern: string,
  { ignoreCase = false, maxLength = MAX_PATTERN_LENGTH }: { ignoreCase?: boolean; maxLength?: number } = {},
): LinearPattern {
  if (pattern.length > maxLength) {
    throw new InvalidPatternError(pattern, `it is longer than ${maxLength} characters`, false);
  }
  // The hints are only read to word the refusal; what is refused is decided by RE2 below.
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const hint = UNSUPPORTED.find(([shape]) => shape.test(pattern));
    if (hint) throw new InvalidPatternError(pattern, hint[1], true);
    const code = (error as { error?: unknown }).error;
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new InvalidPatternError(pattern, reason, typeof code !== 'string' || !MALFORMED.has(code));
  }
  const groups = re.groupCount();
  return {
    source: pattern,
    groups,
    test: (input) => re.test(input),
    replace: (input, replacement, limit = Infinity) => {
      const matcher = re.matcher(input);
      let out = '';
      let from = 0;
      let written = 0;
      while (matcher.find()) {
        const text = written >= limit ? '' : expand(replacement, (n) => (n <= groups ? matcher.group(n) : null));
        written += text.length;
        out += input.slice(from, matcher.start()) + text;
        from = matcher.end();
      }
      return out + input.slice(from);
    },
  };
}

function expand(replacement: string, group: (n: number) => string | null): string {
  if (!replacement.includes('$')) return replacement;
  return replacement.replace(/\$([0-9&$])/g, (_token, what: string) => {
    if (what === '$') return '$';
    return group(what === '&' ? 0 : Number(what)) ?? '';
  });
}
