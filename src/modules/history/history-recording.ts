// Wires the request history into the app: a recorder that writes to `request_history`, flushed at shutdown.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Executor } from '../../db/executor.js';
import { addHistory } from './history.store.js';
import { RequestHistory, type RequestHistoryOptions } from './request-history.js';

/** A recorder that logs (rather than throws) failed periodic flushes. */
export function createRequestHistory(
  db: Executor,
  log: FastifyBaseLogger,
  options: Omit<RequestHistoryOptions, 'write' | 'onFlushError'> = {},
): RequestHistory {
  return new RequestHistory({
    ...options,
    write: (rows) => addHistory(db, rows),
    onFlushError: (error) =>
      log.warn(
        { cause: error instanceof Error ? error.message : String(error) },
        'could not write the request history; keeping it for the next flush',
      ),
  });
}

/** Starts the periodic flush; closing the app writes what is pending (after in-flight requests finished). */
export function installHistoryFlush(app: FastifyInstance, history: RequestHistory): void {
  history.start();
  app.addHook('onClose', async () => {
    try {
      await history.stop();
    } catch (error) {
      app.log.error({ err: error }, 'could not write the last request history at shutdown');
    }
  });
}
