// Runs per-item work once the event loop's I/O callbacks of the current turn have run, in one pass, so work that need not delay an answer stays off the path between one answer and the next.

export interface EndOfTurn<T> {
  /** Queues `item` for the end of this turn. */
  add(item: T): void;
  /** Handles everything queued, now (a reader that must see it, a shutdown). */
  settle(): void;
}

/**
 * Queues items and hands each to `handle` from a `setImmediate` after the turn's I/O callbacks, or sooner through
 * `settle`. A throwing `handle` loses only its own item; the error goes to `failed`.
 */
export function endOfTurn<T>(handle: (item: T) => void, failed: (error: unknown) => void): EndOfTurn<T> {
  let queued: T[] = [];
  let scheduled = false;
  const settle = () => {
    scheduled = false;
    if (queued.length === 0) return;
    const items = queued;
    queued = [];
    for (const item of items) {
      try {
        handle(item);
      } catch (error) {
        failed(error);
      }
    }
  };
  return {
    add(item) {
      queued.push(item);
      if (!scheduled) {
        scheduled = true;
        setImmediate(settle);
      }
    },
    settle,
  };
}
