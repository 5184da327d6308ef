// The public subscription link that proxy client apps poll: /sub/{token}[/{format}] and the same under /api/v1.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/errors.js';
import { ErrorResponse, errorResponses } from '../../http/schemas.js';
import { routeDefaults } from '../../http/route-defaults.js';
import { FORMAT_NAMES } from '../../formats/formats.js';
import type { FormatSettings } from '../formats/format-settings.js';
import type { RenderCache } from './render-cache.js';
import { answerLink, chooseFor, matchesEtag } from './link-answer.js';
import { LINK_PAGE_HEADERS, renderLinkNotFoundPage } from './link-page.js';
import { isTokenShaped } from '../../shared/tokens.js';

const formatNames = FORMAT_NAMES.map((name) => `\`${name}\``).join(', ');

const Query = Type.Object({
  format: Type.Optional(
    Type.String({
      maxLength: 64,
      description: `Output format: ${formatNames}. Without it, the format rules choose (default \`base64\`).`,
    }),
  ),
});

const NOT_FOUND_PAGE = renderLinkNotFoundPage();

const responses = {
  ...errorResponses(400, 403),
  404: {
    description:
      'Unknown token or inactive owner: an HTML page when the request would get the page, else the error envelope.',
    content: {
      'application/json': { schema: ErrorResponse },
      'text/html': { schema: Type.String({ description: 'The HTML 404 page.' }) },
    },
  },
};

const Params = Type.Object({ token: Type.String({ description: 'Subscription token.' }) });
const FormatParams = Type.Object({
  token: Type.String({ description: 'Subscription token.' }),
  format: Type.String({ maxLength: 64, description: `Output format: ${formatNames}.` }),
});

export interface PublicRoutesOptions {
  cache: RenderCache;
  formats: FormatSettings;
  publicBaseUrl: string;
}

export const publicRoutes: FastifyPluginAsync<PublicRoutesOptions> = async (fastify, options) => {
  const { cache, formats, publicBaseUrl } = options;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  routeDefaults(app, { kind: 'public', tags: ['Public link'] });
  const description =
    'Serves the resolved servers of a subscription (hidden/depth rules, de-duplicated, capped) in the chosen ' +
    'format: the path form, then `?format=`, then the format rules on the request headers, then `base64`. ' +
    'Answers carry `Subweave-Format`, `Subweave-Rule`, `Subweave-Skipped` (when servers were skipped), ' +
    "`profile-title`, `profile-update-interval`, `content-disposition`, the link settings' `support-url`, " +
    '`profile-web-page-url`, `announce` and `subscription-userinfo` when set, and a strong ETag per format (covering ' +
    'those headers); ' +
    'If-None-Match answers 304. No authentication. Unknown tokens and inactive owners answer 404 (an HTML page ' +
    'when the choice is `page`, else `subscription_not_found`).';

  const serve = async (
    token: string,
    pathFormat: string | undefined,
    queryFormat: string | undefined,
    request: { headers: Record<string, string | string[] | undefined> },
    reply: FastifyReply,
  ) => {
    const choice = chooseFor(formats, { pathFormat, queryFormat, headers: request.headers });
    if (choice.result === 'block') throw errors.clientBlocked(choice.rule);
    const resolved = isTokenShaped(token) ? await cache.get(token) : null;
    if (!resolved) {
      if (choice.result !== 'page') throw errors.subscriptionNotFound();
      return reply
        .code(404)
        .headers({ ...LINK_PAGE_HEADERS, 'cache-control': 'no-store', vary: formats.rules.vary })
        .send(NOT_FOUND_PAGE);
    }
    const answer = answerLink(resolved, { ...choice, result: choice.result }, formats, `${publicBaseUrl}/sub/${token}`);
    reply.headers(answer.headers);
    if (matchesEtag(request.headers['if-none-match'] as string | undefined, answer.headers['etag']!)) {
      return reply.code(304).send();
    }
    return reply.send(answer.body);
  };

  for (const url of ['/api/v1/sub/:token', '/sub/:token']) {
    app.get(
      url,
      {
        schema: {
          summary: 'Subscription for client apps',
          description,
          params: Params,
          querystring: Query,
          response: responses,
        },
      },
      async (request, reply) => serve(request.params.token, undefined, request.query.format, request, reply),
    );
    app.get(
      `${url}/:format`,
      {
        schema: {
          summary: 'Subscription in a named format',
          description,
          params: FormatParams,
          querystring: Query,
          response: responses,
        },
      },
      async (request, reply) =>
        serve(request.params.token, request.params.format, request.query.format, request, reply),
    );
  }
};
