// The worker thread of line-parser.ts: parses one upstream body per message, off the service's event loop (DESIGN 16).
import { parentPort } from 'node:worker_threads';
import { parseUpstreamLines } from './content.js';

export interface ParseJob {
  body: Uint8Array;
  maxLines: number;
}

export type ParseAnswer = { ready: true } | { lines: string[] } | { error: string };

const port = parentPort;
if (port) {
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
