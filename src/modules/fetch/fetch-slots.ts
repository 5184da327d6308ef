// One per-process limit on upstream fetches running at once, shared by the refresher, the refresh endpoint and create/add (docs/api.md, External sources and refresh).

export class FetchSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Runs `work` once a slot is free; the slot is held until it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` never exceeds the limit.
      if (next) next();
      else this.running--;
    }
  }

  get active(): number {
    return this.running;
  }
}
