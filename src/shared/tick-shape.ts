// Keeps one `process.nextTick` queue entry alive for the life of the process, so V8 never drops the object shape all those entries share and every later nextTick stays on its fast path.
import { executionAsyncResource } from 'node:async_hooks';

/*
 * Node builds each queued tick as an object literal whose first two keys are computed (its async-id symbols). V8 adds
 * such keys through a runtime call unless the literal's feedback has only ever seen one shape (map), and it holds
 * those maps weakly; as we read V8, a full collection that finds no tick queued frees them, the next tick makes new
 * ones and the feedback turns megamorphic for good. From then on every nextTick (node:http takes about five per
 * request) goes through the runtime: 5-8 % of the CPU in half of the service processes measured, none since one
 * entry is kept (docs/benchmarks.md). Imported first by the CLI: the entry queued here holds the maps while the rest
 * of the program loads, and its callback keeps it from then on.
 */
let kept: object | undefined;

process.nextTick(() => {
  kept = executionAsyncResource();
});

/** The queue entry kept (undefined until the tick after this module was imported). */
export function keptTickEntry(): object | undefined {
  return kept;
}
