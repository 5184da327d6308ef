// The public subscription link that proxy client apps poll: GET /api/v1/sub/{token} and its alias /sub/{token}.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import { routeDefaults } from '../../http/route-defaults.js';
import type { OutputFormat, RenderCache } from './render-cache.js';
import { isTokenShaped } from '../../shared/tokens.js';

const Query = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('base64'), Type.Literal('plain')], {
      description: '`base64` (default): standard base64 of the lines; `plain`: the lines as text.',
    }),
  ),
});

const Params = Type.Object({ token: Type.String({ description: 'Subscription token.' }) });

export const publicRoutes: FastifyPluginAsync<{ cache: RenderCache }> = async (fastify, { cache }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  routeDefaults(app, { kind: 'public', tags: ['Public link'] });
  const schema = {
    summary: 'Resolved subscription for client apps',
    description:
      'Serves the resolved config lines of a subscription (hidden/depth rules, de-duplicated, capped), with ' +
      '`profile-title`, `profile-update-interval`, `content-disposition` and a strong ETag; If-None-Match answers 304. ' +
      'No authentication. Unknown tokens and inactive owners answer 404.',
    params: Params,
    querystring: Query,
    response: errorResponses(400, 404),
  };

  for (const url of ['/api/v1/sub/:token', '/sub/:token']) {
    app.get(url, { schema }, async (request, reply) => {
      const { token } = request.params;
      const resolved = isTokenShaped(token) ? await cache.get(token) : null;
      if (!resolved) throw errors.subscriptionNotFound();
      const format: OutputFormat = request.query.format ?? 'base64';
      const { body, etag } = resolved.render(format);
      reply.headers(resolved.headers).header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return (reply as FastifyReply).code(304).send();
      return (reply as FastifyReply).type('text/plain; charset=utf-8').send(body);
    });
  }
};

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored, `*` matches anything. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
