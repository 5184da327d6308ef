// Runs work queued during a turn of the event loop once the turn's I/O callbacks have run, in one pass, so work that need not happen between one request and the next is done for all of them together.

export interface EndOfTurn<T> {
  /** Queues `item` for the end of this turn. */
  add(item: T): void;
  /** Handles everything queued, now (a reader that must see it, a shutdown). */
  settle(): void;
}

/**
 * Queues items and hands them, in the order queued, to `handle` from a `setImmediate` after the turn's I/O
 * callbacks, or sooner through `settle`. `handle` deals with its own errors: it is given each batch once.
 */
export function endOfTurn<T>(handle: (items: T[]) => void): EndOfTurn<T> {
  let queued: T[] = [];
  let scheduled = false;
  const settle = () => {
    scheduled = false;
    if (queued.length === 0) return;
    const items = queued;
    queued = [];
    handle(items);
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
