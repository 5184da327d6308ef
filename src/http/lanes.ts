// Puts a lane in front of Fastify on its own server: requests the lane answers never enter Fastify's pipeline.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

type Handler = (raw: IncomingMessage, response: ServerResponse) => void;

/**
 * Wraps the server's request listener (Fastify's router) rather than building the server in a `serverFactory`, so
 * Fastify's own server set-up (timeouts, keep-alive, listening) stays exactly as it is. A second address Fastify
 * opens for a host name such as `localhost` is served by Fastify alone, with the same answers.
 */
export function answerFirst(
  server: Server,
  lane: (raw: IncomingMessage, response: ServerResponse, next: () => void) => void,
): void {
  const routers = server.listeners('request') as Handler[];
  if (routers.length !== 1) throw new Error(`expected Fastify's one request listener, found ${routers.length}`);
  const router = routers[0]!;
  server.removeListener('request', router);
  server.on('request', (raw: IncomingMessage, response: ServerResponse) => {
    lane(raw, response, () => router(raw, response));
  });
}
