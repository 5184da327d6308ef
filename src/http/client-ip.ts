// The one function every IP-based rule uses: the socket address, or X-Forwarded-For behind a trusted proxy (DESIGN.md 7).
import type { FastifyInstance } from 'fastify';
import { clientIpFrom, IpMatcher, type IpRange } from '../net/ip.js';

declare module 'fastify' {
  interface FastifyRequest {
    clientIp: string;
  }
}

export function installClientIp(app: FastifyInstance, trustProxy: IpRange[]): void {
  const trusted = trustProxy.length > 0 ? new IpMatcher(trustProxy) : null;
  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', (request, _reply, done) => {
    const forwarded = request.headers['x-forwarded-for'];
    request.clientIp = clientIpFrom(
      request.raw.socket.remoteAddress ?? '',
      Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
      trusted,
    );
    done();
  });
}
