// The list of admin route groups mounted under /api/v1/admin behind the allowlist and signature checks.
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { ChangeFeed } from '../resolve/change-feed.js';
import { UsersService } from '../users/users.service.js';
import { adminUserRoutes } from './admin-users.routes.js';

export interface AdminDependencies {
  config: Config;
  database: DatabaseHandle;
  changes: ChangeFeed;
}

export function adminRoutes(deps: AdminDependencies): FastifyPluginAsync[] {
  return [adminUserRoutes(new UsersService(deps.database, deps.changes))];
}
