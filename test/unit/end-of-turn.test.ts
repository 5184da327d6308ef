// Work queued for the end of a turn is handed over once, in order, after the turn's callbacks, or at once when settled.
import { describe, expect, it } from 'vitest';
import { endOfTurn } from '../../src/shared/end-of-turn.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('endOfTurn', () => {
  it('hands the items of a turn over after it, in order, in one batch, and each turn in its own', async () => {
    const batches: number[][] = [];
    const queue = endOfTurn<number>((items) => batches.push(items));
    queue.add(1);
    queue.add(2);
    expect(batches).toEqual([]);
    await nextTurn();
    expect(batches).toEqual([[1, 2]]);
    queue.add(3);
    await nextTurn();
    await nextTurn();
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('hands everything queued over at once when settled, and the scheduled pass then finds nothing', async () => {
    const batches: string[][] = [];
    const queue = endOfTurn<string>((items) => batches.push(items));
    queue.settle();
    expect(batches).toEqual([]);
    queue.add('a');
    queue.settle();
    expect(batches).toEqual([['a']]);
    await nextTurn();
    expect(batches).toEqual([['a']]);
    queue.add('b');
    await nextTurn();
    expect(batches).toEqual([['a'], ['b']]);
  });

  it('takes items queued while a batch is handled into the next batch', async () => {
    const batches: number[][] = [];
    const queue = endOfTurn<number>((items) => {
      batches.push(items);
      if (items[0] === 1) queue.add(2);
    });
    queue.add(1);
    await nextTurn();
    expect(batches).toEqual([[1]]);
    await nextTurn();
    expect(batches).toEqual([[1], [2]]);
  });
});
