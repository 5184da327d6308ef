// The one client address every IP-based rule uses: the socket address, or X-Forwarded-For behind a trusted proxy (DESIGN.md 7 and 13).
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
  }
}

/**
 * Install first on the root: a forwarded client entry that is not an address is refused here, before any other hook,
 * so nothing is authenticated, charged or banned in the proxy's name.
 */
export function installClientIp(app: FastifyInstance, trustProxy: IpRange[]): void {
  const trusted = trustProxy.length > 0 ? new IpMatcher(trustProxy) : null;
  app.decorateRequest('clientIp', '');
  // A socket's own address never changes: keep-alive requests reuse its normalised form.
  const socketIps = new WeakMap<Socket, string>();
  const resolve = (request: FastifyRequest): void => {
    const forwarded = request.headers['x-forwarded-for'];
    if (trusted === null || forwarded === undefined) {
      const socket = request.raw.socket;
      let ip = socketIps.get(socket);
      if (ip === undefined) {
        ip = clientIpFrom(socket.remoteAddress ?? '', undefined, null) ?? '';
        if (socket.remoteAddress !== undefined) socketIps.set(socket, ip);
      }
      request.clientIp = ip;
      return;
    }
    const ip = clientIpFrom(
      request.raw.socket.remoteAddress ?? '',
      Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
      trusted,
    );
    if (ip === null) throw errors.invalidForwardedFor();
    request.clientIp = ip;
  };
  app.decorate('resolveClientIp', resolve);
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      resolve(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
