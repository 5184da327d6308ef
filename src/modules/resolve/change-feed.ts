// Announces data changes that alter resolved output, so caches drop exactly what depends on them.
export type Change =
  | { kind: 'subscription'; token: string }
  | { kind: 'url'; url: string }
  | { kind: 'user'; userId: number };

type Listener = (change: Change) => void;

export class ChangeFeed {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: Change): void {
    for (const listener of this.listeners) listener(change);
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
