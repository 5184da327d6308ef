// Marks requests that the code answering them has already counted, timed and logged (the public-link pipeline), so Fastify's general hooks for those do not do it again.
import type { IncomingMessage } from 'node:http';

const accounted = new WeakSet<IncomingMessage>();

export function markAccounted(raw: IncomingMessage): void {
  accounted.add(raw);
}

export function isAccounted(raw: IncomingMessage): boolean {
  return accounted.has(raw);
}
