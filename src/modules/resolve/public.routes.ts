// The public subscription link that proxy client apps poll: /sub/{token}[/{format}] and the same under /api/v1.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/errors.js';
import { ErrorResponse, errorResponses } from '../../http/schemas.js';
import { routeDefaults } from '../../http/route-defaults.js';
import { FORMAT_NAMES } from '../../formats/formats.js';
import type { FormatSettings } from '../formats/format-settings.js';
import type { RenderCache, ResolvedSubscription } from './render-cache.js';
import type { LinkChoice } from '../formats/format-rules.js';
import type { Format } from '../../formats/formats.js';
import { chooseFor, linkReply } from './link-answer.js';
import { LINK_PAGE_HEADERS, renderLinkNotFoundPage } from './link-page.js';
import { isTokenShaped } from '../../shared/tokens.js';
import type { RequestHistory } from '../history/request-history.js';

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

/** Where the link is served: `{mount}/{token}` and `{mount}/{token}/{format}`. */
export const LINK_MOUNTS = ['/api/v1/sub', '/sub'] as const;

export interface PublicRoutesOptions {
  cache: RenderCache;
  formats: FormatSettings;
  publicBaseUrl: string;
  history: RequestHistory;
}

export const publicRoutes: FastifyPluginAsync<PublicRoutesOptions> = async (fastify, options) => {
  const { cache, formats, publicBaseUrl, history } = options;
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

  type ServedChoice = LinkChoice & { result: Format | 'page' };
  type LinkRequestView = Pick<FastifyRequest, 'headers' | 'clientIp'>;
  const answer = (
    token: string,
    resolved: ResolvedSubscription | null,
    choice: LinkChoice,
    request: LinkRequestView,
    reply: FastifyReply,
  ): FastifyReply => {
    if (!resolved) {
      if (choice.result !== 'page') throw errors.subscriptionNotFound();
      return reply
        .code(404)
        .headers({ ...LINK_PAGE_HEADERS, 'cache-control': 'no-store', vary: formats.rules.vary })
        .send(NOT_FOUND_PAGE);
    }
    const ifNoneMatch = request.headers['if-none-match'];
    const served = choice as ServedChoice;
    const { headers, body, served: servers } = linkReply(resolved, served, formats, token, publicBaseUrl, ifNoneMatch);
    history.record({
      token,
      format: served.variant ?? served.result,
      rule: served.rule,
      status: body ? 200 : 304,
      userAgent: request.headers['user-agent'],
      ip: request.clientIp,
      servers,
    });
    reply.headers(headers);
    return body ? reply.send(body) : reply.code(304).send();
  };

  /** A cached link is answered synchronously (no promise, no await): the hot path of the service. */
  const serve = (
    token: string,
    pathFormat: string | undefined,
    queryFormat: string | undefined,
    request: LinkRequestView,
    reply: FastifyReply,
  ): Promise<void> | undefined => {
    const choice = chooseFor(formats, { pathFormat, queryFormat, headers: request.headers });
    if (choice.result === 'block') throw errors.clientBlocked(choice.rule);
    const cached = isTokenShaped(token) ? cache.peek(token) : undefined;
    if (cached) {
      answer(token, cached, choice, request, reply);
      return undefined;
    }
    // Awaiting the reply settles once the answer is written, as an async handler that returns it would.
    return (async () => {
      const resolved = isTokenShaped(token) ? await cache.get(token) : null;
      await answer(token, resolved, choice, request, reply);
    })();
  };

  // Refusals (400 for an unknown format, 403, 429...) of a link held in memory; answers are recorded as they are
  // written. A refused link that is not in memory is not looked up, so a flood of made-up tokens costs no query.
  app.addHook('onResponse', (request, reply, done) => {
    const params = request.params as { token?: string; format?: string };
    if (reply.statusCode >= 400 && params.token !== undefined && cache.has(params.token)) {
      const query = request.query as { format?: unknown };
      history.record({
        token: params.token,
        format: params.format ?? (typeof query.format === 'string' ? query.format.slice(0, 64) : null),
        rule: null,
        status: reply.statusCode,
        userAgent: request.headers['user-agent'],
        ip: request.clientIp,
        servers: null,
      });
    }
    done();
  });

  for (const url of LINK_MOUNTS.map((mount) => `${mount}/:token`)) {
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
      (request, reply) => serve(request.params.token, undefined, request.query.format, request, reply),
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
      (request, reply) => serve(request.params.token, request.params.format, request.query.format, request, reply),
    );
  }
};
