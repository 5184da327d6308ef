// An upstream whose body is unparseable is left alone for a growing pause, so a hostile body costs one parse per pause instead of one per refresher pass (docs/reliability.md).

const FIRST_SECONDS = 15 * 60;
const MAX_SECONDS = 24 * 60 * 60;

export interface Backoff {
  /** Consecutive unparseable bodies, this one included. */
  count: number;
  /** ISO time before which the refresher does not fetch the URL again. */
  until: string;
}

/** The back-off after one more unparseable body, `previousCount` having come before it: 15 min, doubling, at most 24 h. */
export function nextBackoff(previousCount: number, nowMs: number): Backoff {
  const count = previousCount + 1;
  const seconds = Math.min(MAX_SECONDS, FIRST_SECONDS * 2 ** Math.min(count - 1, 16));
  return { count, until: new Date(nowMs + seconds * 1000).toISOString() };
}
