// Large upstream bodies are parsed on one worker thread so a 5 MB body never holds the event loop (DESIGN 16); small bodies, and bodies the worker fails on, are parsed inline in short slices.
import { setImmediate as nextTick } from 'node:timers/promises';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { parseUpstreamLines } from './content.js';
import type { ParseAnswer, ParseJob } from './parse-worker.js';

/** Up to this size a body costs less inline (a few short slices) than a trip to the worker and back. */
const INLINE_MAX_BYTES = 64 * 1024;
/** After a worker failed to start, bodies are parsed inline for this long before a new worker is tried. */
const RESTART_DELAY_MS = 60_000;
/** A body the worker has not parsed in this time is given up (as an upstream error) and the worker replaced. */
const JOB_TIMEOUT_MS = 60_000;
const MiB = 1024 * 1024;
/** Bytes of a body copied into shared memory between two yields to the event loop. */
const COPY_BYTES_PER_TICK = 512 * 1024;

const WORKER_URL = new URL(`./parse-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export interface LineParserOptions {
  /** FETCH_MAX_BYTES: the worker's heap limit is sized from it, so a worker out of memory ends only the worker. */
  maxBytes: number;
  inlineMaxBytes?: number;
  jobTimeoutMs?: number;
  /** The worker's module (tests use one that fails). */
  workerUrl?: URL;
  /** Told once per worker failure; the bodies it had are parsed inline. */
  onWorkerError?: (error: Error) => void;
}

/** The worker cannot take the body (it failed, is starting over, or the parser is closing): parse it inline. */
class WorkerUnavailable extends Error {}

/** The worker took too long: reported as the fetch's error, not retried inline (it could hang the event loop). */
class ParseTimeout extends Error {}

interface Job extends ParseJob {
  resolve(lines: string[]): void;
  reject(error: Error): void;
}

export class LineParser {
  private worker: Worker | null = null;
  private ready = false;
  private running: Job | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly queue: Job[] = [];
  private pausedUntil = 0;
  private closed = false;

  constructor(private readonly options: LineParserOptions) {}

  /** parseUpstreamLines, on the worker when the body is larger than the inline size. */
  parse(body: Buffer, maxLines: number): Promise<string[]> {
    return this.parseChunks([body], body.length, maxLines);
  }

  /** The same for a body received in `chunks` (`size` bytes in all). The worker takes one body at a time. */
  async parseChunks(chunks: readonly Buffer[], size: number, maxLines: number): Promise<string[]> {
    if (size <= (this.options.inlineMaxBytes ?? INLINE_MAX_BYTES)) {
      return parseUpstreamLines(Buffer.concat(chunks, size), maxLines);
    }
    const body = await sharedCopy(chunks, size);
    if (!this.available()) return parseUpstreamLines(body, maxLines);
    try {
      return await new Promise<string[]>((resolve, reject) => {
        this.queue.push({ body, maxLines, resolve, reject });
        this.pump();
      });
    } catch (error) {
      if (error instanceof WorkerUnavailable) return parseUpstreamLines(body, maxLines);
      throw error;
    }
  }

  /** Ends the worker; bodies still on their way are parsed inline. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.retire(worker, null);
    await worker.terminate();
  }

  private available(): boolean {
    return !this.closed && Date.now() >= this.pausedUntil;
  }

  /** Sends the next waiting body to the worker (starting one if needed) unless one is being parsed. */
  private pump(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker?.unref();
      return;
    }
    if (!this.available()) {
      job.reject(new WorkerUnavailable('paused'));
      this.pump();
      return;
    }
    const worker = this.worker ?? this.start();
    this.running = job;
    worker.ref();
    // Shared, neither copied (slow for megabytes) nor transferred: if the worker fails, the body is parsed inline.
    worker.postMessage({ body: job.body, maxLines: job.maxLines } satisfies ParseJob);
    const timeoutMs = this.options.jobTimeoutMs ?? JOB_TIMEOUT_MS;
    this.timer = setTimeout(
      () => this.retire(worker, new ParseTimeout(`parsing the body took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
  }

  private start(): Worker {
    const options: WorkerOptions = {
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.ceil((this.options.maxBytes * 8) / MiB)) },
    };
    const worker = spawnWorker(this.options.workerUrl ?? WORKER_URL, options);
    worker.on('message', (answer: ParseAnswer) => this.answer(worker, answer));
    worker.on('error', (error) => this.retire(worker, error));
    worker.on('exit', (code) => this.retire(worker, new Error(`upstream parser worker exited with code ${code}`)));
    this.worker = worker;
    this.ready = false;
    return worker;
  }

  private answer(worker: Worker, answer: ParseAnswer): void {
    if (worker !== this.worker) return;
    if ('ready' in answer) {
      this.ready = true;
      return;
    }
    const job = this.running;
    this.running = null;
    clearTimeout(this.timer);
    if ('lines' in answer) job?.resolve(answer.lines);
    else job?.reject(new Error(answer.error));
    this.pump();
  }

  /**
   * Ends `worker` after it failed, timed out, or at close (`error` null); the next body starts a new one. The body it
   * had is parsed inline unless it timed out. A worker that failed before it was ready pauses the worker path.
   */
  private retire(worker: Worker, error: Error | null): void {
    if (worker !== this.worker) return;
    this.worker = null;
    clearTimeout(this.timer);
    worker.terminate().catch(() => undefined);
    const job = this.running;
    this.running = null;
    const timedOut = error instanceof ParseTimeout;
    if (error && !timedOut) {
      this.options.onWorkerError?.(error);
      if (!this.ready) this.pausedUntil = Date.now() + RESTART_DELAY_MS;
    }
    job?.reject(timedOut ? error : new WorkerUnavailable(error?.message ?? 'closing'));
    this.pump();
  }
}

/**
 * `chunks` (of `size` bytes in all) in one buffer over shared memory, which a worker reads without a copy. Copied a
 * slice per turn of the event loop: copying megabytes at once takes milliseconds on a busy machine.
 */
async function sharedCopy(chunks: readonly Buffer[], size: number): Promise<Buffer> {
  const joined = Buffer.from(new SharedArrayBuffer(size));
  let offset = 0;
  let sinceYield = 0;
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.length;) {
      if (sinceYield >= COPY_BYTES_PER_TICK) {
        await nextTick();
        sinceYield = 0;
      }
      const end = Math.min(chunk.length, start + COPY_BYTES_PER_TICK - sinceYield);
      offset += chunk.copy(joined, offset, start, end);
      sinceYield += end - start;
      start = end;
    }
  }
  return joined;
}

/** From the TypeScript sources (tsx, vitest) the worker registers tsx's loader before importing its module. */
function spawnWorker(url: URL, options: WorkerOptions): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const source = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(source, { ...options, eval: true });
}
