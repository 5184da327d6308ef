// The public subscription link that proxy client apps poll: /sub/{token}[/{format}] and the same under /api/v1, answered through the link pipeline.
import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/errors.js';
import { ErrorResponse, errorResponses } from '../../http/schemas.js';
import { routeDefaults } from '../../http/route-defaults.js';
import { FORMAT_NAMES } from '../../formats/formats.js';
import type { FormatSettings } from '../formats/format-settings.js';
import type { RenderCache, ResolvedSubscription } from './render-cache.js';
import { LINK_PAGE_HEADERS, linkPageView, renderLinkNotFoundPage } from './link-page.js';
import type { BrandingSettings } from '../branding/branding.js';
import { LANGUAGES } from '../../i18n/i18n.js';
import { isTokenShaped } from '../../shared/tokens.js';
import type { RequestHistory } from '../history/request-history.js';
import { redactUrl } from '../../http/request-log.js';
import { markAccounted } from '../../http/self-accounted.js';
import type { LinkPipeline, LinkRequest, ServedChoice } from './link-pipeline.js';

const formatNames = FORMAT_NAMES.map((name) => `\`${name}\``).join(', ');

const Query = Type.Object({
  format: Type.Optional(
    Type.String({
      maxLength: 64,
      description: `Output format: ${formatNames}. Without it, the format rules choose (default \`base64\`).`,
    }),
  ),
  lang: Type.Optional(
    Type.String({
      maxLength: 16,
      description:
        `The page's language (${LANGUAGES.map((lang) => `\`${lang}\``).join(', ')}); only the page reads it, ` +
        'and an unknown one is ignored (the `subweave_lang` cookie, then `Accept-Language` choose).',
    }),
  ),
});

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

/** The route patterns of each mount: the routes are registered under them, and the lane observes its answers under them. */
export const LINK_ROUTES = LINK_MOUNTS.map((mount) => ({
  mount,
  bare: `${mount}/:token`,
  format: `${mount}/:token/:format`,
}));

export interface PublicRoutesOptions {
  cache: RenderCache;
  formats: FormatSettings;
  branding: BrandingSettings;
  pipeline: LinkPipeline;
  history: RequestHistory;
}

/** A compressed form is made at most this many times for one request (a settings change can replace the answer). */
const READY_ATTEMPTS = 3;

/** The headers the hooks set on the reply (request id, budget), as a flat list for the pipeline to write first. */
function headerList(reply: FastifyReply): string[] {
  const list: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (Array.isArray(value)) for (const item of value) list.push(name, item);
    else if (value !== undefined) list.push(name, String(value));
  }
  return list;
}

export const publicRoutes: FastifyPluginAsync<PublicRoutesOptions> = async (fastify, options) => {
  const { cache, formats, branding, pipeline, history } = options;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  routeDefaults(app, { kind: 'public', tags: ['Public link'] });
  const description =
    'Serves the resolved servers of a subscription (hidden/depth rules, de-duplicated, capped) in the chosen ' +
    'format: the path form, then `?format=`, then the format rules on the request headers, then `base64`. ' +
    'Answers carry `Subweave-Format`, `Subweave-Rule`, `Subweave-Skipped` (when servers were skipped), ' +
    "`profile-title`, `profile-update-interval`, `content-disposition`, the link settings' `support-url`, " +
    '`profile-web-page-url`, `announce` and `subscription-userinfo` when set, and a strong ETag per format (covering ' +
    'those headers); ' +
    'bodies of 1 KiB or more come brotli- or gzip-compressed as `Accept-Encoding` prefers (br first on a tie; ' +
    '`Vary: Accept-Encoding` on every answer), each form with its own ETag (the identity ETag with `-br` or `-gzip` ' +
    'inside the quotes); ' +
    "If-None-Match answers 304. The page (choice `page`) is drawn in the visitor's language (`?lang=`, the " +
    '`subweave_lang` cookie, `Accept-Language`) for their platform with the branding, and adds ' +
    '`accept-language, cookie` to `Vary`. No authentication. Unknown tokens and inactive owners answer 404 (an ' +
    "HTML page in the visitor's language when the choice is `page`, else `subscription_not_found`).";

  /** Writes the pipeline's answer on the raw response, which then also accounts for the request; false: not ready. */
  const respond = (
    link: LinkRequest,
    resolved: ResolvedSubscription,
    choice: ServedChoice,
    reply: FastifyReply,
  ): boolean => {
    const answer = pipeline.respond(link, resolved, choice, headerList(reply));
    if (!answer) return false;
    reply.hijack();
    markAccounted(link.raw);
    pipeline.deliver(link, reply.raw, answer, (error) => {
      // Hijacked: Fastify can no longer answer, so the client's connection is given up.
      reply.log.error({ err: error }, 'writing a link answer failed');
      reply.raw.destroy();
    });
    // Off the lane, nothing is gained by waiting for the end of the turn.
    pipeline.settle();
    return true;
  };

  /** A cached link whose form is made is answered synchronously (no promise, no await). */
  const serve = (
    token: string,
    pathFormat: string | undefined,
    query: { format?: string; lang?: string },
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> | undefined => {
    const link: LinkRequest = {
      raw: request.raw,
      token,
      pathFormat,
      queryFormat: query.format,
      lang: query.lang,
      ip: request.clientIp,
      id: request.id,
      started: performance.now() - reply.elapsedTime,
      route: request.routeOptions.url!,
      urlJson: JSON.stringify(redactUrl(request.url)),
    };
    const choice = pipeline.choose(link);
    if (choice.result === 'block') throw errors.clientBlocked(choice.rule);
    const cached = isTokenShaped(token) ? cache.peek(token) : undefined;
    if (cached && respond(link, cached, choice as ServedChoice, reply)) return undefined;
    // Awaiting the reply settles once the answer is written, as an async handler that returns it would.
    return (async () => {
      const resolved = cached ?? (isTokenShaped(token) ? await cache.get(token) : null);
      if (!resolved) {
        if (choice.result !== 'page') throw errors.subscriptionNotFound();
        const view = linkPageView({ headers: request.headers, lang: query.lang }, branding.current);
        const vary = `${formats.rules.vary}, accept-language, cookie`;
        await reply
          .code(404)
          .headers({ ...LINK_PAGE_HEADERS, 'cache-control': 'no-store', vary })
          .send(renderLinkNotFoundPage(view));
        return;
      }
      for (let attempt = 0; attempt < READY_ATTEMPTS; attempt++) {
        await pipeline.ready(link, resolved, choice as ServedChoice);
        if (respond(link, resolved, choice as ServedChoice, reply)) return;
      }
      throw new Error('the compressed form of a link answer was replaced before it could be written');
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

  for (const route of LINK_ROUTES) {
    app.get(
      route.bare,
      {
        schema: {
          summary: 'Subscription for client apps',
          description,
          params: Params,
          querystring: Query,
          response: responses,
        },
      },
      (request, reply) => serve(request.params.token, undefined, request.query, request, reply),
    );
    app.get(
      route.format,
      {
        schema: {
          summary: 'Subscription in a named format',
          description,
          params: FormatParams,
          querystring: Query,
          response: responses,
        },
      },
      (request, reply) => serve(request.params.token, request.params.format, request.query, request, reply),
    );
  }
};
