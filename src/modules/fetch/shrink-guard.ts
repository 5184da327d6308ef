// The empty/shrink guard (DESIGN 6, 15): an upstream that suddenly serves far fewer configs is more often broken than shrunk, so such a result waits for confirmation.
import { createHash } from 'node:crypto';
import { lineIdentity } from '../resolve/resolver.js';

/** A fetch with fewer than this share of the last good lines (when there were at least SHRINK_MIN) is a shrink. */
export const SHRINK_RATIO = 0.3;
export const SHRINK_MIN = 10;
/** A shrink is accepted when the same shrunken result has come on this many consecutive fetches. */
export const SHRINK_CONFIRMATIONS = 3;

export interface GuardState {
  /** Lines of the last good content, or 0 when there is none. */
  previousCount: number;
  /** The shrunken result held so far (its fingerprint) and on how many consecutive fetches it came. */
  held: { hash: string; count: number } | null;
}

export type GuardVerdict =
  | { kind: 'accept' }
  | { kind: 'refuse'; error: string }
  | { kind: 'hold'; error: string; shrink: { hash: string; count: number } };

/** What to do with freshly fetched lines; `acceptShrink` (refresh with accept_shrink) takes a shrink at once. */
export function guard(lines: readonly string[], state: GuardState, acceptShrink: boolean): GuardVerdict {
  if (lines.length === 0) return { kind: 'refuse', error: 'upstream returned no proxy configs' };
  const { previousCount } = state;
  if (acceptShrink || previousCount < SHRINK_MIN || lines.length >= previousCount * SHRINK_RATIO) {
    return { kind: 'accept' };
  }
  const hash = fingerprint(lines);
  const count = state.held?.hash === hash ? state.held.count + 1 : 1;
  if (count >= SHRINK_CONFIRMATIONS) return { kind: 'accept' };
  return {
    kind: 'hold',
    shrink: { hash, count },
    error:
      `upstream shrank from ${previousCount} to ${lines.length} configs; kept the previous content (this result ` +
      `came ${count} of ${SHRINK_CONFIRMATIONS} times in a row; refresh with accept_shrink to take it now)`,
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
