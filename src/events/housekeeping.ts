// Prunes the audit log after AUDIT_RETENTION_DAYS, the events outbox and settled webhook messages after a week, and
// expired browser sessions and sign-in links, on a timer that never throws.
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/executor.js';
import { pruneAudit, pruneEvents } from './audit.store.js';
import { pruneMessages } from '../webhooks/messages.store.js';
import { pruneSessions } from '../modules/sessions/sessions.store.js';

const DAY_MS = 24 * 3600_000;
/** Events are the outbox of webhook deliveries, which are kept 7 days. */
export const EVENT_RETENTION_MS = 7 * DAY_MS;
const PRUNE_EVERY_MS = 3600_000;

export interface Housekeeping {
  /** Prunes once now (also what the timer does). */
  prune(): Promise<void>;
  stop(): Promise<void>;
}

export function startHousekeeping(
  db: Executor,
  auditRetentionDays: number,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Housekeeping {
  let running: Promise<void> | null = null;
  const prune = (): Promise<void> =>
    (running ??= (async () => {
      const now = Date.now();
      await pruneAudit(db, new Date(now - auditRetentionDays * DAY_MS).toISOString());
      await pruneEvents(db, new Date(now - EVENT_RETENTION_MS).toISOString());
      await pruneMessages(db, new Date(now - EVENT_RETENTION_MS).toISOString());
      await pruneSessions(db, new Date(now).toISOString());
    })()
      .catch((error: unknown) => log.warn({ err: error }, 'pruning the audit log failed; trying again later'))
      .finally(() => {
        running = null;
      }));
  const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  timer.unref();
  return {
    prune,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
