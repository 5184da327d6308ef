// The empty/shrink guard (docs/api.md, "A real shrink is accepted"): an upstream that suddenly serves far fewer configs, or none, is more often broken than shrunk, so such a result waits for confirmation.
import { createHash } from 'node:crypto';
import { lineIdentity } from '../resolve/resolver.js';

/** A fetch with fewer than this share of the last good lines (when there were at least SHRINK_MIN) is a shrink. */
export const SHRINK_RATIO = 0.3;
export const SHRINK_MIN = 10;
/** A shrink is accepted when the same shrunken result has come on this many consecutive fetches. */
export const SHRINK_CONFIRMATIONS = 3;

export interface GuardState {
  /** Lines of the last good content, or null when there is none. */
  previousCount: number | null;
  /** The shrunken result held so far (its fingerprint) and on how many consecutive fetches it came. */
  held: { hash: string; count: number } | null;
}

export type GuardVerdict =
  { kind: 'accept' } | { kind: 'hold'; error: string; shrink: { hash: string; count: number } };

/**
 * What to do with freshly fetched lines; `acceptShrink` (refresh with accept_shrink) takes a shrink at once. An empty
 * answer is always a shrink (unless the last good content is empty too): a broken upstream often answers empty.
 */
export function guard(lines: readonly string[], state: GuardState, acceptShrink: boolean): GuardVerdict {
  const previousCount = state.previousCount ?? 0;
  const empty = lines.length === 0;
  if (empty ? state.previousCount === 0 : previousCount < SHRINK_MIN || lines.length >= previousCount * SHRINK_RATIO) {
    return { kind: 'accept' };
  }
  if (acceptShrink) return { kind: 'accept' };
  const hash = fingerprint(lines);
  const count = state.held?.hash === hash ? state.held.count + 1 : 1;
  if (count >= SHRINK_CONFIRMATIONS) return { kind: 'accept' };
  const what = empty
    ? `upstream returned no proxy configs${state.previousCount === null ? '' : '; kept the previous content'}`
    : `upstream shrank from ${previousCount} to ${lines.length} configs; kept the previous content`;
  return {
    kind: 'hold',
    shrink: { hash, count },
    error:
      `${what} (this result came ${count} of ${SHRINK_CONFIRMATIONS} times in a row; refresh with accept_shrink ` +
      `to take it now)`,
  };
}

/**
 * Equal for the same servers in any order: some upstreams shuffle their list, or rewrite remarks (traffic left)
 * on every fetch, and those are still the same result.
 */
export function fingerprint(lines: readonly string[]): string {
  const identities = lines.map(lineIdentity).sort();
  return createHash('sha256').update(identities.join('\n')).digest('base64url');
}
