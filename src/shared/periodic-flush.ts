// Runs an in-memory buffer's write one batch at a time, on a timer and on demand, reporting the first failure of each run of failures.
export interface PeriodicFlushOptions {
  /** Writes what the buffer holds; on failure it keeps the batch for the next attempt and throws. */
  writePending: () => Promise<void>;
  intervalMs: number;
  /** Told of the first failed periodic flush of a run of failures (one report per outage, not one per flush). */
  onFlushError?: ((error: unknown) => void) | undefined;
}

export class PeriodicFlush {
  private tail: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: PeriodicFlushOptions) {}

  /** Flushes run one at a time, so awaiting this means everything buffered before the call is written (or it throws). */
  flush(): Promise<void> {
    const run = this.tail.then(this.options.writePending);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Starts the periodic flush; the timer does not keep the process alive. */
  start(): void {
    if (this.timer) return;
    let failing = false;
    this.timer = setInterval(() => {
      this.flush().then(
        () => void (failing = false),
        (error: unknown) => {
          if (!failing) this.options.onFlushError?.(error);
          failing = true;
        },
      );
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left (graceful shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
