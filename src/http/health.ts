// Liveness and readiness probes for orchestrators and load balancers.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { DatabaseHandle } from '../db/database.js';
import { AppError } from './errors.js';
import { errorResponses } from './schemas.js';
import { defaultRouteKind } from './route-kind.js';

const Status = Type.Object({ status: Type.String({ description: '`ok` or `ready`.' }) });

export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  defaultRouteKind(app, 'infra');
  app.get('/healthz', {
    schema: { tags: ['Health'], summary: 'Liveness', description: 'Answers 200 while the process serves HTTP; touches no dependency.', response: { 200: Status } },
  }, async () => ({ status: 'ok' }));

  app.get('/readyz', {
    schema: {
      tags: ['Health'], summary: 'Readiness', description: 'Answers 200 when the database answers, else 503 `not_ready`.',
      response: { 200: Status, ...errorResponses(503) },
    },
  }, async () => {
    try {
      await database.ping();
    } catch {
      throw new AppError(503, 'not_ready', 'The database is not reachable.', { database: 'unreachable' });
    }
    return { status: 'ready' };
  });
};
