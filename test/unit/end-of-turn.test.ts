// Work queued for the end of a turn runs once, in order, after the turn's callbacks, or at once when settled.
import { describe, expect, it } from 'vitest';
import { endOfTurn } from '../../src/shared/end-of-turn.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('endOfTurn', () => {
  it('handles the items of a turn after it, in order, each once', async () => {
    const handled: number[] = [];
    const queue = endOfTurn<number>(
      (item) => handled.push(item),
      () => undefined,
    );
    queue.add(1);
    queue.add(2);
    expect(handled).toEqual([]);
    await nextTurn();
    expect(handled).toEqual([1, 2]);
    queue.add(3);
    await nextTurn();
    await nextTurn();
    expect(handled).toEqual([1, 2, 3]);
  });

  it('handles everything queued at once when settled, and the scheduled pass then finds nothing', async () => {
    const handled: string[] = [];
    const queue = endOfTurn<string>(
      (item) => handled.push(item),
      () => undefined,
    );
    queue.add('a');
    queue.settle();
    expect(handled).toEqual(['a']);
    await nextTurn();
    expect(handled).toEqual(['a']);
    queue.add('b');
    await nextTurn();
    expect(handled).toEqual(['a', 'b']);
  });

  it('loses only the item whose handling threw, and reports its error', async () => {
    const handled: number[] = [];
    const failures: unknown[] = [];
    const queue = endOfTurn<number>(
      (item) => {
        if (item === 2) throw new Error('two');
        handled.push(item);
      },
      (error) => failures.push(error),
    );
    for (const item of [1, 2, 3]) queue.add(item);
    await nextTurn();
    expect(handled).toEqual([1, 3]);
    expect(failures).toEqual([new Error('two')]);
  });
});
