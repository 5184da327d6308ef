// Everything under /api/v1/admin: the allowlist and signature guards, then every admin route group inside them.
import type { FastifyPluginAsync } from 'fastify';
import { routeDefaults } from '../../http/route-defaults.js';
import type { AbuseControls } from '../abuse/abuse.service.js';
import { abuseRoutes } from '../abuse/abuse.routes.js';
import type { ConnectionsService } from '../connections/connections.service.js';
import type { ProvidersService } from '../providers/providers.service.js';
import type { StatsService } from '../stats/stats.service.js';
import { adminStatsRoutes } from '../stats/stats.routes.js';
import type { FormatSettings } from '../formats/format-settings.js';
import { formatAdminRoutes } from '../formats/formats.routes.js';
import type { UsersService } from '../users/users.service.js';
import { adminConnectionRoutes } from './admin-connections.routes.js';
import { adminProviderRoutes } from './admin-providers.routes.js';
import { adminUserRoutes } from './admin-users.routes.js';
import { guardAdmin, type AdminGuardOptions } from './admin.plugin.js';
import { ADMIN_ERRORS, ADMIN_TAG, adminSecurity } from './admin.schemas.js';
import type { Executor } from '../../db/executor.js';
import { adminAuditRoutes } from '../../events/audit.routes.js';
import { adminWebhookRoutes } from '../../webhooks/webhooks.routes.js';
import type { WebhooksService } from '../../webhooks/webhooks.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import { adminSignInLinkRoutes } from '../sessions/sessions.routes.js';

export interface AdminRoutesOptions extends AdminGuardOptions {
  users: UsersService;
  providers: ProvidersService;
  connections: ConnectionsService;
  abuse: AbuseControls;
  stats: StatsService;
  formats: FormatSettings;
  db: Executor;
  webhooks: WebhooksService;
  sessions: SessionsService;
}

export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
  const { users, providers, connections, abuse, stats, formats } = options;
  guardAdmin(app, options);
  routeDefaults(app, { kind: 'admin', tags: [ADMIN_TAG], security: adminSecurity, errors: ADMIN_ERRORS });
  await app.register(adminUserRoutes, { users });
  await app.register(adminSignInLinkRoutes, { sessions: options.sessions });
  await app.register(adminProviderRoutes, { providers, users });
  await app.register(adminConnectionRoutes, { connections, users });
  await app.register(abuseRoutes, { controls: abuse, defaultBanSeconds: options.config.defaultBanSeconds });
  await app.register(adminStatsRoutes, { stats });
  await app.register(formatAdminRoutes, { formats });
  await app.register(adminAuditRoutes, { db: options.db });
  await app.register(adminWebhookRoutes, { webhooks: options.webhooks });
};
