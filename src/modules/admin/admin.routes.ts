// The list of admin route groups mounted under /api/v1/admin behind the allowlist and signature checks.
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { abuseRoutes } from '../abuse/abuse.routes.js';
import { adminStatsRoutes } from '../stats/stats.routes.js';
import { adminConnectionRoutes } from './admin-connections.routes.js';
import { adminProviderRoutes } from './admin-providers.routes.js';
import { adminUserRoutes } from './admin-users.routes.js';

export function adminRoutes(context: AppContext): FastifyPluginAsync[] {
  return [
    adminUserRoutes(context.users),
    adminProviderRoutes(context.providers, context.database.db),
    adminConnectionRoutes(context.connections, context.users),
    abuseRoutes(context.abuse, context.config.defaultBanSeconds),
    adminStatsRoutes(context.stats),
  ];
}
