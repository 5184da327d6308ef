// Lets waiters go on one at a time, each in a turn of the event loop of its own, so that work resumed by many at once (deliveries whose answers arrived together) is spread between other I/O instead of running as one block.

export class OnePerTurn {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves in a turn of its own: the next waiter's turn is queued only once this one has begun. */
  wait(): Promise<void> {
    const turn = this.tail.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.tail = turn;
    return turn;
  }
}
