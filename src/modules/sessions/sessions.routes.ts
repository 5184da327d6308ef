// Browser sign-in (/api/v1/session) and the sign-in links providers and admins mint for a user (docs/api.md, docs/security.md).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../../http/errors.js';
import { errorResponses, NoContent } from '../../http/schemas.js';
import { providerOnlyRoutes, routeDefaults } from '../../http/route-defaults.js';
import type { Authenticator } from '../../http/plugins/auth.js';
import { providerCaller } from '../../http/caller.js';
import { readSessionCookie, sameOrigin, sessionCookieHeader, type OriginRule } from '../../http/session-cookie.js';
import type { ConnectionsService } from '../connections/connections.service.js';
import { ProviderUserParams } from '../connections/connections.schemas.js';
import { UserIdParams } from '../admin/admin.schemas.js';
import type { SessionsService } from './sessions.service.js';
import { SessionResponse, SignInBody, SignInLinkResponse } from './sessions.schemas.js';

export interface SessionRoutesOptions {
  sessions: SessionsService;
  origins: OriginRule;
}

/** `/api/v1/session`: sign in (token or code), see the session, sign out. */
export const sessionRoutes: FastifyPluginAsync<SessionRoutesOptions> = async (fastify, { sessions, origins }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  routeDefaults(app, { kind: 'user', tags: ['Session'], errors: [401, 403, 429] });
  const setCookie = (reply: FastifyReply, value: string | null) =>
    reply.header('set-cookie', sessionCookieHeader(value, origins.secure)).header('cache-control', 'no-store');
  /** A browser always sends Origin with these methods; a foreign one is a cross-site attempt (non-browser clients send none). */
  const refuseForeignOrigin = (request: FastifyRequest) => {
    if (request.headers.origin !== undefined && !sameOrigin(request, origins)) throw errors.badOrigin();
  };

  app.post(
    '/',
    {
      config: { credentialInBody: true },
      schema: {
        summary: 'Sign in',
        description:
          'Starts a browser session from the API token or the code of a sign-in link, and sets the `subweave_session` ' +
          'cookie (HttpOnly, SameSite=Strict, 7 days sliding; Secure when PUBLIC_BASE_URL is https). 401 invalid_token ' +
          'for an unknown token, 401 invalid_sign_in_code for a code that is unknown, expired or used, 403 ' +
          'account_disabled for a disabled user, 403 bad_origin when an Origin header names another site.',
        body: SignInBody,
        response: { 200: SessionResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      refuseForeignOrigin(request);
      const started = await sessions.signIn(request.body);
      // The browser keeps one cookie: the session it held until now would only linger.
      const previous = readSessionCookie(request);
      if (previous !== null) await sessions.signOut(previous);
      setCookie(reply, started.cookie);
      return { user_id: started.user_id, expires_at: started.expires_at };
    },
  );

  app.get(
    '/',
    {
      schema: {
        summary: 'The current session',
        description:
          'The session the `subweave_session` cookie names; 401 when there is none or it ended. Using a session ' +
          'moves its expiry to 7 days later (written at most once an hour, with the cookie sent again).',
        response: { 200: SessionResponse },
      },
    },
    async (request, reply) => {
      const cookie = readSessionCookie(request);
      if (cookie === null) throw errors.missingToken();
      const session = await sessions.find(cookie);
      if (!session) throw errors.invalidSession();
      if (!session.is_active) throw errors.accountDisabled();
      if (session.renewed) setCookie(reply, cookie);
      return { user_id: session.user_id, expires_at: session.expires_at };
    },
  );

  app.delete(
    '/',
    {
      schema: {
        summary: 'Sign out',
        description:
          'Ends the session the cookie names and clears the cookie (Max-Age=0); harmless without one. With a cookie, ' +
          'the Origin header must be this service (403 bad_origin).',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const cookie = readSessionCookie(request);
      if (cookie !== null) {
        if (!sameOrigin(request, origins)) throw errors.badOrigin();
        await sessions.signOut(cookie);
      }
      setCookie(reply, null);
      return reply.status(204).send(null);
    },
  );
};

export interface ProviderSignInLinkOptions {
  auth: Authenticator;
  connections: ConnectionsService;
  sessions: SessionsService;
}

/** `POST /api/v1/providers/{user_id}/sign-in-link`: for a user who approved the calling provider. */
export const providerSignInLinkRoutes: FastifyPluginAsync<ProviderSignInLinkOptions> = async (
  fastify,
  { auth, connections, sessions },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  providerOnlyRoutes(app, auth, ['Providers']);

  app.post(
    '/:user_id/sign-in-link',
    {
      schema: {
        summary: 'Mint a sign-in link for a user',
        description:
          'A one-time link that signs the user in to the browser app, valid 15 minutes: for users of a bot who never ' +
          'saw their API token. Only for a user who approved your connection (403 connection_not_approved otherwise, ' +
          '403 account_disabled for a disabled user). Send the URL to that user only.',
        params: ProviderUserParams,
        response: { 201: SignInLinkResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const provider = providerCaller(request);
      await connections.requireApproved(provider.providerHash, request.params.user_id);
      return reply.status(201).send(await sessions.mintLink(request.params.user_id, provider.providerHash));
    },
  );
};

/** `POST /api/v1/admin/users/{user_id}/sign-in-link`, registered inside the signed admin routes. */
export const adminSignInLinkRoutes: FastifyPluginAsync<{ sessions: SessionsService }> = async (
  fastify,
  { sessions },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/users/:user_id/sign-in-link',
    {
      schema: {
        summary: 'Mint a sign-in link for a user',
        description:
          'A one-time link that signs the user in to the browser app, valid 15 minutes. 404 user_not_found, 403 ' +
          'account_disabled for a disabled user.',
        params: UserIdParams,
        response: { 201: SignInLinkResponse, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await sessions.mintLink(request.params.user_id)),
  );
};
