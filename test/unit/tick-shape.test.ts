import { describe, expect, it } from 'vitest';
import { keptTickEntry } from '../../src/shared/tick-shape.js';

describe('tick shape', () => {
  it('keeps a nextTick queue entry, the object whose maps every later entry shares', async () => {
    await new Promise((resolve) => process.nextTick(resolve));
    const entry = keptTickEntry();
    expect(entry).toBeDefined();
    // Node's tick entry: its two async-id symbols, then the callback and its arguments.
    expect(Object.getOwnPropertySymbols(entry).map(String)).toEqual([
      'Symbol(async_id_symbol)',
      'Symbol(trigger_async_id_symbol)',
    ]);
    expect(Object.keys(entry as object)).toEqual(['callback', 'args']);
  });
});
