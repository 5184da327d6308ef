// The worker thread of line-parser.ts: parses one upstream body per message, off the service's event loop (docs/security.md, Hostile upstream bodies).
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { parseUpstreamLines } from './content.js';

export interface ParseJob {
  body: Uint8Array;
  maxLines: number;
}

export type ParseAnswer = { ready: true } | { lines: string[] } | { error: string };

/** Linux gives each thread its own nice value: parsing yields the CPU to the threads that answer requests. */
const NICE = 10;

const port = parentPort;
if (port) {
  lowerPriority();
  port.on('message', (job: ParseJob) => {
    const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
    parseUpstreamLines(body, job.maxLines).then(
      (lines) => port.postMessage({ lines } satisfies ParseAnswer),
      (error: unknown) =>
        port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ParseAnswer),
    );
  });
  port.postMessage({ ready: true } satisfies ParseAnswer);
}

/** 0 is the calling thread on Linux; elsewhere it would be the whole process, so the priority is left alone there. */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, NICE);
  } catch {
    // A sandbox may refuse it; the body is still parsed off the event loop.
  }
}
