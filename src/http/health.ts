// Liveness and readiness probes for orchestrators and load balancers.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { Readiness } from '../context.js';
import { routeDefaults } from './route-defaults.js';

const Status = Type.Object({ status: Type.String({ description: '`ok`.' }) });
const ReadinessBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')], {
    description: 'Reachable and writable, or not.',
  }),
  redis: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('off')], {
    description:
      '`degraded`: configured but unreachable (the instance runs on its own counters); `off`: not configured.',
  }),
});

const Envelope = Type.Object({
  error: Type.String(),
  message: Type.String(),
  details: Type.Object({ database: Type.String(), redis: Type.String() }),
});

export const healthRoutes: FastifyPluginAsync<{ readiness: () => Promise<Readiness> }> = async (app, { readiness }) => {
  routeDefaults(app, { kind: 'infra', tags: ['Health'] });
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness',
        description: 'Answers 200 while the process serves HTTP; touches no dependency.',
        response: { 200: Status },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness',
        description:
          'Answers 200 while the database is reachable and writable, else 503; Redis being away does not make it 503.',
        response: { 200: ReadinessBody, 503: Type.Intersect([ReadinessBody, Envelope]) },
      },
    },
    async (_request, reply) => {
      const state = await readiness();
      if (state.database === 'ok') return state;
      // Both shapes at once: the probe's fields, and the error envelope every non-2xx answer carries.
      return reply.status(503).send({
        ...state,
        error: 'database_unavailable',
        message: 'The database is unreachable or not writable.',
        details: { database: state.database, redis: state.redis },
      });
    },
  );
};
