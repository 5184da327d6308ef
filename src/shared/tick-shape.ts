// Keeps one `process.nextTick` queue entry alive for the life of the process, so V8 never drops the object shape all those entries share and every later nextTick stays on its fast path.
import { executionAsyncResource } from 'node:async_hooks';

/*
 * Node builds each queued tick as an object literal whose first two keys are computed (its async-id symbols). V8 adds
 * such keys through a runtime call unless the literal's feedback has only ever seen one shape (map), and it holds
 * those maps weakly: when a full collection finds no tick queued, the maps die, the next tick makes new ones and the
 * feedback turns megamorphic for good. From then on every nextTick (node:http takes five or six per request) goes
 * through the runtime: 5-8 % of the CPU in about half of the service processes measured (docs/benchmarks.md). One
 * entry kept alive keeps its maps alive. Imported first by the CLI, so the entry is taken before anything else has
 * run and nothing has collected yet.
 */
let kept: object | undefined;

process.nextTick(() => {
  kept = executionAsyncResource();
});

/** The queue entry kept (undefined until the tick after this module was imported). */
export function keptTickEntry(): object | undefined {
  return kept;
}
