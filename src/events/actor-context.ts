// Who is acting, carried with the async work of a request or command, so write paths record events and audit entries without passing it along.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Actor } from './event-types.js';

export interface Acting {
  /** Read when an event is written: authentication may name the caller after the handler began. */
  actor(): Actor;
  clientIp: string | null;
  requestId: string | null;
}

const storage = new AsyncLocalStorage<Acting>();
/**
 * Acting work not yet settled. On Node 20 an enabled AsyncLocalStorage runs a hook for every async resource the
 * process creates (a public-link request makes several), which cost the warm link about a tenth of its throughput
 * (docs/benchmarks.md); so the storage is enabled only while some acting work is in flight.
 */
let inFlight = 0;

/** The component that acts when nothing else does (the refresher, automatic bans). */
export function systemActing(component: string): Acting {
  return { actor: () => ({ kind: 'system', id: component }), clientIp: null, requestId: null };
}

/** An administrator acting without the admin API: `cli` (direct database commands) or `import`. */
export function adminActing(id: string): Acting {
  return { actor: () => ({ kind: 'admin', id }), clientIp: null, requestId: null };
}

/** Runs `work` with `acting` as the actor of every event it records. */
export function actingAs<T>(acting: Acting, work: () => T): T {
  inFlight++;
  let result: T;
  try {
    result = storage.run(acting, work);
  } catch (error) {
    settled();
    throw error;
  }
  if (result instanceof Promise) result.then(settled, settled);
  else settled();
  return result;
}

function settled(): void {
  if (--inFlight === 0) storage.disable();
}

export function currentActing(): Acting {
  return storage.getStore() ?? systemActing('service');
}
