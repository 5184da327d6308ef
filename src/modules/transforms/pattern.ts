// The one door to the linear-time (RE2-semantics) pattern engine, shaped like src/shared/linear-pattern.ts so it can be repointed there.
import { RE2JS, RE2JSException } from 're2js';

export interface LinearPattern {
  /** Whether the pattern matches anywhere in `input`. */
  test(input: string): boolean;
  /**
   * `input` with every match replaced; `$1`..`$9` in `replacement` stand for the groups (empty when unmatched).
   * Once the replacements written reach `limit` code units, later matches are replaced by nothing: a short pattern
   * matching often cannot make a short name huge.
   */
  replace(input: string, replacement: string, limit?: number): string;
}

/** A pattern the engine refuses: bad syntax, or a backreference or lookaround that RE2 semantics leave out. */
export class InvalidPatternError extends Error {
  override readonly name = 'InvalidPatternError';
}

export function compile(pattern: string, options: { ignoreCase?: boolean } = {}): LinearPattern {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (error instanceof RE2JSException) throw new InvalidPatternError(error.message);
    throw error;
  }
  const groupCount = compiled.groupCount();
  return {
    test: (input) => compiled.test(input),
    replace: (input, replacement, limit = Infinity) => {
      let written = 0;
      return compiled.matcher(input).replaceAll((...groups: unknown[]) => {
        if (written >= limit) return '';
        const text = replacement.replace(/\$([1-9])/g, (_, digit: string) => {
          // After the groups the replacer receives the offset and the whole input, which a `$n` must never reach.
          const group = Number(digit) <= groupCount ? groups[Number(digit)] : undefined;
          return typeof group === 'string' ? group : '';
        });
        written += text.length;
        return text;
      });
    },
  };
}
