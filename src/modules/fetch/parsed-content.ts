// An upstream's lines are parsed once when they are stored, so a cold render reads their parse results instead (docs/architecture.md).
import { setImmediate as nextTick } from 'node:timers/promises';
import { parseShareUri } from '../../formats/share-uri/index.js';
import { storedForm } from '../../formats/share-uri/stored.js';

/** Longest stretch of parsing between two yields to the event loop, as for the classification in content.ts. */
const MS_PER_TICK = 2;
const LINES_PER_CLOCK_CHECK = 32;

/** The stored form of the parse results of `lines` (a JSON array in their order), parsed in short slices. */
export async function parsedContent(lines: readonly string[]): Promise<string> {
  const forms: string[] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < lines.length; i++) {
    if (i % LINES_PER_CLOCK_CHECK === LINES_PER_CLOCK_CHECK - 1 && performance.now() - sliceStart > MS_PER_TICK) {
      await nextTick();
      sliceStart = performance.now();
    }
    forms.push(storedForm(parseShareUri(lines[i] as string)));
  }
  return `[${forms.join(',')}]`;
}
