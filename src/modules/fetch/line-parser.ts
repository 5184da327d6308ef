// Large upstream bodies, and every profile, are parsed on one worker thread so no body holds the event loop (docs/reliability.md); small lists of links are parsed inline in short slices, and a body the worker fails on is unparseable, never parsed inline.
import { setImmediate as nextTick } from 'node:timers/promises';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { looksLikeProfile, parseUpstreamLines } from './content.js';
import type { ParseAnswer, ParseJob } from './parse-worker.js';

/**
 * Up to this size a list of links costs less inline (a few short slices) than a trip to the worker and back. A
 * profile (YAML, JSON) always goes to the worker: 64 KiB of YAML merge keys can take a parser seconds.
 */
const INLINE_MAX_BYTES = 64 * 1024;
/** After a worker failed to start, large bodies are refused for this long before a new worker is tried. */
const RESTART_DELAY_MS = 60_000;
/** A body the worker has not parsed in this time is given up (unparseable) and the worker replaced. */
const JOB_TIMEOUT_MS = 60_000;
const MiB = 1024 * 1024;
/** The worker's heap: young generation plus old generation stays within 256 MiB whatever FETCH_MAX_BYTES is. */
const YOUNG_GENERATION_MB = 32;
const MAX_OLD_GENERATION_MB = 224;
const MIN_OLD_GENERATION_MB = 64;
/** Bytes of a body copied into shared memory between two yields to the event loop. */
const COPY_BYTES_PER_TICK = 512 * 1024;

const WORKER_URL = new URL(`./parse-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export interface LineParserOptions {
  /** FETCH_MAX_BYTES: the worker's heap limit is sized from it (capped), so a worker out of memory ends only the worker. */
  maxBytes: number;
  inlineMaxBytes?: number;
  jobTimeoutMs?: number;
  /** The worker's module (tests use one that fails). */
  workerUrl?: URL;
  /** Told once per worker failure; the body it had is unparseable. */
  onWorkerError?: (error: Error) => void;
}

/**
 * The body was refused before parsing (docs/security.md), or the worker failed on it (out of memory, timeout, crash,
 * could not start): the fetch fails as `upstream_unparseable`. The message says why, for the log.
 */
export class UpstreamUnparseable extends Error {}

/** The parser is closing (shutdown): the fetch fails, but the body is not to blame. */
export class ParserClosed extends Error {}

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

  /** parseUpstreamLines, on the worker when the body is a profile or larger than the inline size; rejects UpstreamUnparseable. */
  parse(body: Buffer, maxLines: number): Promise<string[]> {
    return this.parseChunks([body], body.length, maxLines);
  }

  /** The same for a body received in `chunks` (`size` bytes in all). The worker takes one body at a time. */
  async parseChunks(chunks: readonly Buffer[], size: number, maxLines: number): Promise<string[]> {
    const small = size <= (this.options.inlineMaxBytes ?? INLINE_MAX_BYTES) ? Buffer.concat(chunks, size) : null;
    if (small && !looksLikeProfile(small)) {
      try {
        return await parseUpstreamLines(small, maxLines);
      } catch (error) {
        throw new UpstreamUnparseable(error instanceof Error ? error.message : String(error));
      }
    }
    this.refuseUnavailable();
    const body = await sharedCopy(chunks, size);
    this.refuseUnavailable();
    return new Promise<string[]>((resolve, reject) => {
      this.queue.push({ body, maxLines, resolve, reject });
      this.pump();
    });
  }

  /** Ends the worker; bodies still on their way fail with ParserClosed. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.retire(worker, null);
    await worker.terminate();
  }

  /** Throws when no worker can take a body now: the parser is closing, or a worker could not start lately. */
  private refuseUnavailable(): void {
    if (this.closed) throw new ParserClosed('the upstream parser is closing');
    if (Date.now() < this.pausedUntil) throw new UpstreamUnparseable('the parser worker could not start');
  }

  /** Sends the next waiting body to the worker (starting one if needed) unless one is being parsed. */
  private pump(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker?.unref();
      return;
    }
    try {
      this.refuseUnavailable();
    } catch (error) {
      job.reject(error as Error);
      this.pump();
      return;
    }
    const worker = this.worker ?? this.start();
    this.running = job;
    worker.ref();
    // Shared, not copied: copying megabytes would take the event loop longer than sharing them.
    worker.postMessage({ body: job.body, maxLines: job.maxLines } satisfies ParseJob);
    const timeoutMs = this.options.jobTimeoutMs ?? JOB_TIMEOUT_MS;
    this.timer = setTimeout(
      () => this.retire(worker, new UpstreamUnparseable(`parsing the body took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
  }

  private start(): Worker {
    const oldGeneration = Math.ceil((this.options.maxBytes * 8) / MiB);
    const options: WorkerOptions = {
      resourceLimits: {
        maxOldGenerationSizeMb: Math.min(MAX_OLD_GENERATION_MB, Math.max(MIN_OLD_GENERATION_MB, oldGeneration)),
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
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
    else job?.reject(new UpstreamUnparseable(answer.error));
    this.pump();
  }

  /**
   * Ends `worker` after it failed, timed out, or at close (`error` null); the next body starts a new one. The body it
   * had is unparseable (it may be what broke the worker). A worker that failed before it was ready pauses the worker
   * path, so a worker that cannot start is not started again for every body.
   */
  private retire(worker: Worker, error: Error | null): void {
    if (worker !== this.worker) return;
    this.worker = null;
    clearTimeout(this.timer);
    worker.terminate().catch(() => undefined);
    const job = this.running;
    this.running = null;
    const timedOut = error instanceof UpstreamUnparseable;
    if (error && !timedOut) {
      this.options.onWorkerError?.(error);
      if (!this.ready) this.pausedUntil = Date.now() + RESTART_DELAY_MS;
    }
    if (error === null) job?.reject(new ParserClosed('the upstream parser is closing'));
    else job?.reject(timedOut ? error : new UpstreamUnparseable(`the parser worker failed: ${error.message}`));
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
