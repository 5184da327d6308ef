// Wires a request counter into the app: every answered request is counted, and closing the app writes what is pending.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Executor } from '../../db/executor.js';
import { requestKind } from '../../http/route-kind.js';
import { isAccounted } from '../../http/self-accounted.js';
import { RequestCounter, type RequestCounterOptions } from './request-counter.js';
import { addRequestCounts } from './stats.store.js';

/** A counter that writes to `request_counts` and logs (rather than throws) failed periodic flushes. */
export function createRequestCounter(
  db: Executor,
  log: FastifyBaseLogger,
  options: Omit<RequestCounterOptions, 'write' | 'onFlushError'> = {},
): RequestCounter {
  return new RequestCounter({
    ...options,
    write: (rows) => addRequestCounts(db, rows),
    onFlushError: (error) =>
      log.warn(
        { cause: error instanceof Error ? error.message : String(error) },
        'could not write request counts; keeping them for the next flush',
      ),
  });
}

/**
 * Counts in onResponse, so requests of every kind (404s and refusals included) are counted, after the answer is sent;
 * link answers the pipeline wrote are counted by it (resolve/link-pipeline.ts).
 */
export function installRequestCounting(app: FastifyInstance, counter: RequestCounter): void {
  app.addHook('onResponse', (request, _reply, done) => {
    if (!isAccounted(request.raw)) counter.count(requestKind(request));
    done();
  });
  counter.start();
  // onClose runs after in-flight requests have finished, so their counts are part of this last flush.
  app.addHook('onClose', async () => {
    try {
      await counter.stop();
    } catch (error) {
      app.log.error({ err: error }, 'could not write the last request counts at shutdown');
    }
  });
}
