// A stand-in for src/modules/fetch/parse-worker.ts that fails as its URL's ?mode= says: at start, by exiting, by throwing, or by never answering.
import { parentPort } from 'node:worker_threads';

const mode = new URL(import.meta.url).searchParams.get('mode');
if (mode === 'start') throw new Error('cannot load the parser');
parentPort?.postMessage({ ready: true });
parentPort?.on('message', () => {
  if (mode === 'exit') process.exit(3);
  // Thrown a moment into the parse, as a real bug would be: the parent has seen `ready` by then, so this is a
  // failure of a running worker, not of one that never started.
  if (mode === 'throw') {
    setTimeout(() => {
      throw new Error('parser bug');
    }, 50);
  }
  // 'hang': the body is never answered.
});
