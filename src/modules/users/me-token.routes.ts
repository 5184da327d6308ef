// POST /api/v1/me/refresh-token: users re-issue their own API token, from the CLI or the browser app (docs/api.md).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { headerToken, type Authenticator } from '../../http/plugins/auth.js';
import { userCaller } from '../../http/caller.js';
import { userOnlyRoutes } from '../../http/route-defaults.js';
import { sessionCookieHeader, type OriginRule } from '../../http/session-cookie.js';
import type { UsersService } from './users.service.js';

const OwnTokenResponse = Type.Object(
  {
    api_token: Type.String({
      description: 'Your new API token, shown only in this response; the old one no longer works.',
    }),
  },
  { description: 'A freshly issued API token.' },
);

export interface MeTokenRoutesOptions {
  auth: Authenticator;
  users: UsersService;
  origins: OriginRule;
}

/** Mounted at /api/v1/me beside the other self-service routes, with the same authentication. */
export const meTokenRoutes: FastifyPluginAsync<MeTokenRoutesOptions> = async (fastify, { auth, users, origins }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  userOnlyRoutes(app, auth, ['Me']);

  app.post(
    '/refresh-token',
    {
      schema: {
        summary: 'Refresh your API token',
        description:
          'Issues a new API token (shown once, `Cache-Control: no-store`); the old one stops working at once and ' +
          'every browser session of yours ends. Called with the session cookie (and this service as Origin, 403 ' +
          'bad_origin otherwise), the calling browser stays signed in: the answer sets a fresh `subweave_session` ' +
          'cookie. Called with API-Token, no cookie is set.',
        response: { 200: OwnTokenResponse },
      },
    },
    async (request, reply) => {
      // Authentication took the cookie only when no API-Token came.
      const bySession = headerToken(request) === null;
      const { api_token, session } = await users.refreshOwnToken(userCaller(request).userId, bySession);
      reply.header('cache-control', 'no-store');
      if (session) {
        // The old cookie names an ended session: it must not be sent again with this answer.
        request.renewedSession = null;
        reply.header('set-cookie', sessionCookieHeader(session.cookie, origins.secure));
      }
      return { api_token };
    },
  );
};
