// GET /metrics for Prometheus: answered only to ADMIN_ALLOWED_IPS and unsigned, since a scraper cannot sign requests.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { errors } from '../../http/errors.js';
import { routeDefaults } from '../../http/route-defaults.js';
import { IpMatcher } from '../../net/ip.js';
import type { Metrics } from './metrics.js';

export const metricsRoutes: FastifyPluginAsync<{ config: Config; metrics: Metrics }> = async (
  app,
  { config, metrics },
) => {
  routeDefaults(app, { kind: 'infra', tags: ['Health'], errors: [403] });
  const allowed = new IpMatcher(config.adminAllowedIps);
  app.addHook('onRequest', async (request) => {
    if (!allowed.matches(request.clientIp)) throw errors.ipNotAllowed(request.clientIp, 'the metrics endpoint');
  });

  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        description:
          'The Prometheus text exposition format (series prefixed `subweave_`), answered only to addresses on ' +
          'ADMIN_ALLOWED_IPS; no signature. The series are listed in docs/deploy.md.',
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text format 0.0.4.' }) },
      },
    },
    async (_request, reply) => {
      const text = await metrics.text();
      return reply.type(metrics.contentType).send(text);
    },
  );
};
