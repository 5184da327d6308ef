// A stand-in for src/modules/fetch/parse-worker.ts that fails as its URL's ?mode= says: at start, by exiting, by throwing, or by never answering.
import { parentPort } from 'node:worker_threads';

const mode = new URL(import.meta.url).searchParams.get('mode');
if (mode === 'start') throw new Error('cannot load the parser');
parentPort?.postMessage({ ready: true });
parentPort?.on('message', () => {
  if (mode === 'exit') process.exit(3);
  if (mode === 'throw') throw new Error('parser bug');
  // 'hang': the body is never answered.
});
