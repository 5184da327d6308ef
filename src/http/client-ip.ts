// The one client address every IP-based rule uses: the socket address, or X-Forwarded-For behind a trusted proxy (docs/security.md, Who the client is).
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientIpFrom, IpMatcher, type IpRange } from '../net/ip.js';
import { errors } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    clientIp: string;
  }
  interface FastifyInstance {
    /** Sets request.clientIp, or throws 400 invalid_forwarded_for; for requests that skip the hooks (router errors). */
    resolveClientIp(request: FastifyRequest): void;
    /** The client address of a raw request (null: a trusted proxy forwarded no address), as every path resolves it. */
    clientIpOf(raw: IncomingMessage): string | null;
  }
}

/**
 * The client address of a raw request: the socket's (normalised once per connection) or, behind a trusted proxy, the
 * forwarded one; null when the forwarded entry is not an address. `ignoredForward` hears, once, of an X-Forwarded-For
 * that no trusted proxy sent: a proxy in front while TRUST_PROXY is unset makes every client look like the proxy.
 */
export function clientIpResolver(
  trustProxy: IpRange[],
  ignoredForward: () => void,
): (raw: IncomingMessage) => string | null {
  const trusted = trustProxy.length > 0 ? new IpMatcher(trustProxy) : null;
  // A socket's own address never changes: keep-alive requests reuse its normalised form.
  const socketIps = new WeakMap<Socket, string>();
  let warned = false;
  return (raw) => {
    const forwarded = raw.headers['x-forwarded-for'];
    if (trusted === null || forwarded === undefined) {
      if (forwarded !== undefined && !warned) {
        warned = true;
        ignoredForward();
      }
      const socket = raw.socket;
      let ip = socketIps.get(socket);
      if (ip === undefined) {
        ip = clientIpFrom(socket.remoteAddress ?? '', undefined, null) ?? '';
        if (socket.remoteAddress !== undefined) socketIps.set(socket, ip);
      }
      return ip;
    }
    return clientIpFrom(
      raw.socket.remoteAddress ?? '',
      Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
      trusted,
    );
  };
}

/**
 * Install first on the root: a forwarded client entry that is not an address is refused here, before any other hook,
 * so nothing is authenticated, charged or banned in the proxy's name.
 */
export function installClientIp(app: FastifyInstance, clientIpOf: (raw: IncomingMessage) => string | null): void {
  app.decorateRequest('clientIp', '');
  const resolve = (request: FastifyRequest): void => {
    const ip = clientIpOf(request.raw);
    if (ip === null) throw errors.invalidForwardedFor();
    request.clientIp = ip;
  };
  app.decorate('resolveClientIp', resolve);
  app.decorate('clientIpOf', clientIpOf);
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      resolve(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
