// GET /connect/:provider_name, the default connection_link target: a self-contained HTML page where a user approves a provider.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/errors.js';
import { ErrorResponse, errorResponses } from '../../http/schemas.js';
import { routeDefaults } from '../../http/route-defaults.js';
import { PROVIDER_NAME_PATTERN } from '../providers/providers.schemas.js';
import type { ProvidersService } from '../providers/providers.service.js';
import type { BrandingSettings } from '../branding/branding.js';
import { LANGUAGES, pickLanguage } from '../../i18n/i18n.js';
import { CONNECT_PAGE_CSP, renderConnectPage, renderUnknownProviderPage } from './connect-page.view.js';

const NAME_RE = new RegExp(PROVIDER_NAME_PATTERN);
const USER_ID_RE = /^[1-9][0-9]{0,15}$/;

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONNECT_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

const Params = Type.Object({
  provider_name: Type.String({
    description: 'Name of the provider asking for access (4-16 lower-case letters, digits, inner hyphens).',
  }),
});

const Query = Type.Object(
  {
    user_id: Type.Optional(
      Type.String({ description: 'The user the request is for, when the link template adds it; shown on the page.' }),
    ),
    invite: Type.Optional(
      Type.String({ description: 'Invite signature a custom link template may add; the page ignores it.' }),
    ),
    lang: Type.Optional(
      Type.String({
        description: `The page's language (${LANGUAGES.join(', ')}); without it, the remembered choice or Accept-Language.`,
      }),
    ),
  },
  { additionalProperties: true },
);

const HtmlPage = Type.String({ description: 'The HTML page.' });
const html = (description: string) => ({ description, content: { 'text/html': { schema: HtmlPage } } });

export const connectPageRoutes: FastifyPluginAsync<{
  providers: ProvidersService;
  branding: BrandingSettings;
}> = async (fastify, { providers, branding }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  routeDefaults(app, { kind: 'page', tags: ['Connect'] });
  app.get(
    '/connect/:provider_name',
    {
      schema: {
        summary: 'Connection approval page',
        description:
          'The default connection_link target: an HTML page naming the provider that asks for access, where the user ' +
          'pastes their API token, sees the connection status and approves, rejects or revokes it through /api/v1/me. ' +
          'Opening it changes nothing. It also explains where a token comes from and opens a pasted sign-in link. ' +
          'English, Russian, Simplified Chinese or Persian (`?lang=`, then the remembered choice, then ' +
          "Accept-Language), with the admin's branding. An unknown provider answers an HTML 404 page; a malformed " +
          'name answers 404 not_found.',
        params: Params,
        querystring: Query,
        response: {
          200: html('The connect page.'),
          404: {
            description: 'Unknown provider (an HTML page) or a malformed name (the error envelope, not_found).',
            content: { 'text/html': { schema: HtmlPage }, 'application/json': { schema: ErrorResponse } },
          },
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const name = request.params.provider_name;
      if (!NAME_RE.test(name)) throw errors.notFound('No provider can have this name.');
      const provider = await providers.findByName(name);
      const view = {
        lang: pickLanguage({
          query: request.query.lang,
          cookie: request.headers.cookie,
          acceptLanguage: request.headers['accept-language'],
        }),
        branding: branding.current,
      };
      const page = (reply as FastifyReply).headers(SECURITY_HEADERS).type('text/html; charset=utf-8');
      if (!provider) return page.code(404).send(renderUnknownProviderPage(name, view));
      const userId = request.query.user_id ?? '';
      return page.send(
        renderConnectPage(
          {
            providerName: provider.provider_name,
            providerUrl: provider.provider_url,
            userId: USER_ID_RE.test(userId) ? userId : null,
          },
          view,
        ),
      );
    },
  );
};
