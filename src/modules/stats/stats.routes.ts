// GET /api/v1/admin/stats: usage statistics for admins (docs/api.md, Statistics), mounted inside the guarded admin scope.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.js';
import type { StatsService } from './stats.service.js';
import { StatsQuery, StatsResponse } from './stats.schemas.js';

export const adminStatsRoutes: FastifyPluginAsync<{ stats: StatsService }> = async (fastify, { stats }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/stats',
    {
      schema: {
        summary: 'Usage statistics',
        description:
          'Requests, users, subscriptions and providers over a range: `period` (rolling day/week/month ending now) or ' +
          '`start_date`/`end_date` (one alone leaves the other end open: now, or the first recorded activity); ' +
          'neither means the last 7 days. `period` with a date, an invalid date, or a start after the end is 400 ' +
          '`validation_failed`. Requests are counted in hourly UTC buckets, so a range includes whole hours at both ' +
          'ends. Every instance buffers its counts and writes them every 5 s; this instance writes its own before ' +
          'answering, so they include every request it answered before this one. Totals count rows that exist now ' +
          'and were created at or before `end` (deleted rows are not counted).',
        querystring: StatsQuery,
        response: { 200: StatsResponse, ...errorResponses(400) },
      },
    },
    async (request) => stats.get(request.query),
  );
};
