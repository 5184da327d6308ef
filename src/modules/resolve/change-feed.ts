// Announces data changes that alter resolved output, so caches drop exactly what depends on them.
import { randomUUID } from 'node:crypto';
import type { Redis } from '../../redis.js';

export type Change =
  | { kind: 'subscription'; token: string }
  | { kind: 'url'; url: string }
  | { kind: 'user'; userId: number };

/** `remote` is true for changes that another instance announced (they are not sent on again). */
type Listener = (change: Change, remote: boolean) => void;

export class ChangeFeed {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: Change, remote = false): void {
    for (const listener of this.listeners) listener(change, remote);
  }
}

export function changeKey(change: Change): string {
  switch (change.kind) {
    case 'subscription':
      return `sub:${change.token}`;
    case 'url':
      return `url:${change.url}`;
    case 'user':
      return `user:${change.userId}`;
  }
}

/**
 * Relays changes between instances over Redis pub/sub so every instance's caches drop stale output at once.
 * Returns a function that stops relaying and closes the subscriber connection.
 */
export async function relayChangesThroughRedis(feed: ChangeFeed, redis: Redis, channel: string): Promise<() => Promise<void>> {
  const instance = randomUUID();
  const subscriber = redis.duplicate();
  subscriber.on('message', (_channel: string, message: string) => {
    const { from, change } = JSON.parse(message) as { from: string; change: Change };
    if (from !== instance) feed.publish(change, true);
  });
  await subscriber.subscribe(channel);
  const unsubscribe = feed.subscribe((change, remote) => {
    if (!remote) void redis.publish(channel, JSON.stringify({ from: instance, change }));
  });
  return async () => {
    unsubscribe();
    await subscriber.quit();
  };
}
