// Waiters go on one at a time, in the order they came, each in a turn of the event loop of its own.
import { describe, expect, it } from 'vitest';
import { OnePerTurn } from '../../src/shared/one-per-turn.js';

describe('OnePerTurn', () => {
  it('lets waiters on in order, a turn apart: work queued by one runs before the next goes on', async () => {
    const gate = new OnePerTurn();
    const order: string[] = [];
    const waiters = ['a', 'b', 'c'].map((name) =>
      gate.wait().then(() => {
        order.push(name);
        setImmediate(() => order.push(`after ${name}`));
      }),
    );
    await Promise.all(waiters);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a', 'after a', 'b', 'after b', 'c', 'after c']);
  });

  it('lets a waiter on in a later turn than the one it waited in', async () => {
    const gate = new OnePerTurn();
    let turned = false;
    setImmediate(() => (turned = true));
    await gate.wait();
    expect(turned).toBe(true);
  });
});
