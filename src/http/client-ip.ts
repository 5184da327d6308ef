// The one client address every IP-based rule uses: the socket address, or X-Forwarded-For behind a trusted proxy (DESIGN.md 7 and 13).
import type { FastifyInstance } from 'fastify';
import { clientIpFrom, IpMatcher, type IpRange } from '../net/ip.js';
import { errors } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    clientIp: string;
  }
}

/**
 * Install first on the root: a forwarded client entry that is not an address is refused here, before any other hook,
 * so nothing is authenticated, charged or banned in the proxy's name.
 */
export function installClientIp(app: FastifyInstance, trustProxy: IpRange[]): void {
  const trusted = trustProxy.length > 0 ? new IpMatcher(trustProxy) : null;
  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', (request, _reply, done) => {
    const forwarded = request.headers['x-forwarded-for'];
    const ip = clientIpFrom(
      request.raw.socket.remoteAddress ?? '',
      Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
      trusted,
    );
    if (ip === null) {
      done(errors.invalidForwardedFor());
      return;
    }
    request.clientIp = ip;
    done();
  });
}
