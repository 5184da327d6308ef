// GET /api/v1/admin/audit (inside the guarded admin scope) and GET /api/v1/me/audit: reading the append-only audit log.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Executor } from '../db/executor.js';
import { errorResponses } from '../http/schemas.js';
import { userCaller } from '../http/caller.js';
import type { Authenticator } from '../http/plugins/auth.js';
import { userOnlyRoutes } from '../http/route-defaults.js';
import { AdminAuditQuery, AuditPage, MeAuditQuery } from './audit.schemas.js';
import { adminAuditPage, userAuditPage } from './audit.js';

const PAGING =
  'Newest first; `next_cursor` (null on the last page) fetches the older entries. `since` is inclusive, `until` ' +
  'exclusive. Entries are never changed or deleted through the API; they are pruned after AUDIT_RETENTION_DAYS.';

export const adminAuditRoutes: FastifyPluginAsync<{ db: Executor }> = async (fastify, { db }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/audit',
    {
      schema: {
        summary: 'The audit log',
        description: `Every accepted management write: time, actor, client address, request id, action, target and a summary. ${PAGING}`,
        querystring: AdminAuditQuery,
        response: { 200: AuditPage, ...errorResponses(400) },
      },
    },
    async (request) => adminAuditPage(db, request.query),
  );
};

/** Mounted at /api/v1/me beside the other self-service routes, with the same authentication. */
export const meAuditRoutes: FastifyPluginAsync<{ db: Executor; auth: Authenticator }> = async (fastify, options) => {
  const { db, auth } = options;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  userOnlyRoutes(app, auth, ['Me']);
  app.get(
    '/audit',
    {
      schema: {
        summary: 'What was done to your account',
        description: `Changes to your account, connections and subscriptions, by you, a provider or an admin. ${PAGING}`,
        querystring: MeAuditQuery,
        response: { 200: AuditPage, ...errorResponses(400) },
      },
    },
    async (request) => userAuditPage(db, userCaller(request).userId, request.query),
  );
};
