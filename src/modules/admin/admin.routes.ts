// The list of admin route groups mounted under /api/v1/admin behind the allowlist and signature checks.
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import type { AbuseControls } from '../abuse/abuse.service.js';
import { abuseRoutes } from '../abuse/abuse.routes.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { ConnectionsService } from '../connections/connections.service.js';
import { ProvidersService } from '../providers/providers.service.js';
import type { ChangeFeed } from '../resolve/change-feed.js';
import { UsersService } from '../users/users.service.js';
import type { RequestCounter } from '../stats/request-counter.js';
import { adminStatsRoutes } from '../stats/stats.routes.js';
import { StatsService } from '../stats/stats.service.js';
import { adminConnectionRoutes } from './admin-connections.routes.js';
import { adminProviderRoutes } from './admin-providers.routes.js';
import { adminUserRoutes } from './admin-users.routes.js';

export interface AdminDependencies {
  config: Config;
  database: DatabaseHandle;
  changes: ChangeFeed;
  abuse: AbuseControls;
  requestCounter: RequestCounter;
  /** The app's instance, so invites it issues and verifies use one key. */
  connections: ConnectionsService;
}

export function adminRoutes(deps: AdminDependencies): FastifyPluginAsync[] {
  const users = new UsersService(deps.database, deps.changes);
  return [
    adminUserRoutes(users),
    adminProviderRoutes(new ProvidersService(deps.database, deps.changes), deps.database.db),
    adminConnectionRoutes(deps.connections, users),
    abuseRoutes(deps.abuse, deps.config.defaultBanSeconds),
    adminStatsRoutes(new StatsService(deps.database.db, deps.requestCounter)),
  ];
}
