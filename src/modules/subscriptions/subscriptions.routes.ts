// The subscription and source endpoints, written once and mounted per scope (user: /api/v1/subs; provider: /api/v1/providers/:user_id/subs).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject, type TSchema } from 'typebox';
import { errorResponses, NoContent } from '../../http/schemas.js';
import { API_TOKEN_ERRORS, API_TOKEN_SECURITY, routeDefaults, USER_SECURITY } from '../../http/route-defaults.js';
import type { Scope } from './scope.js';
import type { LinkPreview } from '../resolve/link-preview.js';
import { PreviewBody, PreviewQuery, PreviewResponse } from '../formats/formats.schemas.js';
import { errors as appErrors } from '../../http/errors.js';
import type { SubscriptionsService } from './subscriptions.service.js';
import { RequestHistoryResponse, type RequestHistoryView } from '../history/history.schemas.js';
import {
  AddSourcesBody,
  CreateSubscriptionBody,
  PasteResponse,
  RemoveSourcesBody,
  RefreshBody,
  RefreshResponse,
  ReplaceSourcesBody,
  ReplaceTransformsBody,
  SubscriptionListResponse,
  SubscriptionResponse,
  TokenParams,
  UpdateCommentBody,
  UpdateConfigBody,
  UpdateSubscriptionBody,
} from './subscriptions.schemas.js';

export interface SubscriptionRoutesOptions {
  /** Who calls this mount: its routes' kind for bans, rate limits and statistics. */
  kind: 'user' | 'provider';
  service: SubscriptionsService;
  /** Authenticates the caller and decides whose subscriptions the request acts on. */
  resolveScope: (request: FastifyRequest) => Promise<Scope>;
  tag: string;
  /** Path of this mount, used in the comments endpoint's successor link. */
  prefixFor: (request: FastifyRequest) => string;
  /** Path parameters of the mount's prefix (e.g. user_id), validated and documented on every route. */
  scopeParams?: TObject;
  /** What the public link would answer, for the preview endpoint. */
  preview: LinkPreview;
  /** The request history: read for the requests endpoint, written out before a rotation renames its rows. */
  history: { read: (token: string) => Promise<RequestHistoryView>; flush: () => Promise<void> };
}

/** 2024-06-01T00:00:00Z: the date the comments endpoint was deprecated in favour of the config endpoint. */
const COMMENTS_DEPRECATED_AT = 1_717_200_000;

declare module 'fastify' {
  interface FastifyRequest {
    scope: Scope | null;
  }
}

export const subscriptionRoutes: FastifyPluginAsync<SubscriptionRoutesOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { service, tag } = options;
  const security = options.kind === 'user' ? USER_SECURITY : API_TOKEN_SECURITY;
  routeDefaults(app, { kind: options.kind, tags: [tag], security, errors: API_TOKEN_ERRORS });
  app.decorateRequest('scope', null);
  app.addHook('onRequest', async (request) => {
    request.scope = await options.resolveScope(request);
  });
  const scopeOf = (request: FastifyRequest): Scope => request.scope as Scope;
  const Params = options.scopeParams
    ? Type.Object({ ...options.scopeParams.properties, ...TokenParams.properties })
    : TokenParams;
  const rootParams = options.scopeParams ? { params: options.scopeParams } : {};
  /** The options of a change to one subscription that answers the subscription as it is afterwards. */
  const changeRoute = <Body extends TSchema>(summary: string, description: string, body: Body, errors: number[]) => ({
    schema: {
      summary,
      description,
      params: Params,
      body,
      response: { 200: SubscriptionResponse, ...errorResponses(...errors) },
    },
  });

  app.post(
    '/',
    {
      schema: {
        summary: 'Create a subscription',
        description:
          'Creates a named subscription, optionally with initial sources (at most 150) and link settings (update ' +
          'interval, support and web page URLs, announce, userinfo; defaults when omitted or null).',
        ...rootParams,
        body: CreateSubscriptionBody,
        response: { 201: SubscriptionResponse, ...errorResponses(400, 409, 413) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(scopeOf(request), request.body)),
  );

  app.get(
    '/',
    {
      schema: {
        summary: 'List subscriptions',
        description: 'Lists the subscriptions of this scope, oldest first, without their sources.',
        ...rootParams,
        response: { 200: SubscriptionListResponse },
      },
    },
    async (request) => service.list(scopeOf(request)),
  );

  app.get(
    '/:token',
    {
      schema: {
        summary: 'Get a subscription',
        description: 'Returns one subscription with its sources.',
        params: Params,
        response: { 200: SubscriptionResponse, ...errorResponses(404) },
      },
    },
    async (request) => service.get(scopeOf(request), request.params.token),
  );

  app.patch(
    '/:token',
    changeRoute(
      'Change a subscription or its link settings',
      'Changes any of name, description and the link settings; at least one is required, omitted ones stay. ' +
        '`description: null` clears it; a setting set to null returns to its default.',
      UpdateSubscriptionBody,
      [400, 404, 409],
    ),
    async (request) => service.update(scopeOf(request), request.params.token, request.body),
  );

  app.delete(
    '/:token',
    {
      schema: {
        summary: 'Delete a subscription',
        description: 'Deletes the subscription and all its sources.',
        params: Params,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.remove(scopeOf(request), request.params.token);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/:token/rotate',
    {
      schema: {
        summary: 'Rotate the link',
        description:
          'Moves the subscription to a new token and answers it. The old link answers 404 at once; references to ' +
          'it from other subscriptions follow to the new token (their source `data` and `id` change; comment, ' +
          'is_hidden and max_depth stay). A change, so 403 `managed_by_provider` for a user while an approved ' +
          'provider manages the subscription.',
        params: Params,
        response: { 200: SubscriptionResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      // This instance's unwritten fetches are stored under the old token first, so the rotation carries them over.
      await options.history.flush().catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not write the request history before a rotation');
      });
      return service.rotate(scopeOf(request), request.params.token);
    },
  );

  const addRoute = changeRoute(
    'Add sources, or paste many',
    'With `sources`: appends 1-150 sources; sources already present are skipped silently; too many: 413, nothing ' +
      'added; answers 200 with the subscription. With `text`: a pasted block, one source per line, each added or ' +
      'skipped on its own (duplicates, invalid lines, the MAX_SOURCES_PER_SUBSCRIPTION limit); answers 201 with a ' +
      'report of every line when at least one was added, else 200 with the same report. See docs/api.md "Paste many".',
    AddSourcesBody,
    [400, 404, 413],
  );
  app.post(
    '/:token/sources',
    {
      ...addRoute,
      schema: {
        ...addRoute.schema,
        response: {
          ...addRoute.schema.response,
          200: Type.Union([SubscriptionResponse, PasteResponse], {
            description: 'With `sources`: the subscription. With `text`: the report, when no line was added.',
          }),
          201: PasteResponse,
        },
      },
    },
    async (request, reply) => {
      const { sources, text } = request.body;
      if ((sources === undefined) === (text === undefined)) {
        throw appErrors.validation('Send either `sources` or `text`, not both and not neither.', [
          { path: 'body', message: 'must have exactly one of sources and text' },
        ]);
      }
      if (sources) return service.addSources(scopeOf(request), request.params.token, sources);
      const report = await service.pasteSources(scopeOf(request), request.params.token, text as string);
      return reply.code(report.added > 0 ? 201 : 200).send(report);
    },
  );

  app.put(
    '/:token/sources',
    changeRoute(
      'Replace all sources',
      'Replaces the whole source list (0-150 items) in one transaction; order_index restarts at 0.',
      ReplaceSourcesBody,
      [400, 404],
    ),
    async (request) => service.replaceSources(scopeOf(request), request.params.token, request.body.sources),
  );

  app.put(
    '/:token/transforms',
    changeRoute(
      'Replace the transform chain',
      'Sets the transform chain (docs/transforms.md) applied to the servers this subscription serves and contributes ' +
        'to the subscriptions that include it; `[]` or null removes it. A bad operator is 400 `invalid_transform` ' +
        'with `details.index`, and nothing changes.',
      ReplaceTransformsBody,
      [400, 404],
    ),
    async (request) => service.replaceTransforms(scopeOf(request), request.params.token, request.body.transforms),
  );

  app.delete(
    '/:token/sources',
    changeRoute(
      'Remove sources',
      'Removes sources by id. Every id must belong to the subscription, otherwise 404 and nothing is removed.',
      RemoveSourcesBody,
      [400, 404],
    ),
    async (request) => service.removeSources(scopeOf(request), request.params.token, request.body.source_ids),
  );

  app.patch(
    '/:token/config',
    {
      schema: {
        summary: 'Change a source in this subscription',
        description:
          'Sets the comment (configs only), is_hidden and/or max_depth of one source; omitted or null fields stay unchanged, except comment null/"" which resets it.',
        params: Params,
        body: UpdateConfigBody,
        response: { 204: NoContent, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      await service.updateConfig(scopeOf(request), request.params.token, request.body);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/:token/comments',
    {
      schema: {
        summary: 'Set a config comment (deprecated)',
        deprecated: true,
        description: 'Deprecated: use PATCH .../config. Sets only the comment of one config.',
        params: Params,
        body: UpdateCommentBody,
        response: { 204: NoContent, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const successor = `${options.prefixFor(request)}/${encodeURIComponent(request.params.token)}/config`;
      reply
        .header('Deprecation', `@${COMMENTS_DEPRECATED_AT}`)
        .header('Link', `<${successor}>; rel="successor-version"`);
      const { config_id, comment } = request.body;
      await service.updateConfig(scopeOf(request), request.params.token, { config_id, comment });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/:token/refresh',
    {
      config: { optionalBody: true },
      schema: {
        summary: 'Refresh external sources now',
        description:
          'Re-fetches the external URL sources of this subscription now. Failures keep the last good content and are ' +
          'listed in `errors`; config and internal sources count as skipped. A shrunken result is held back by the ' +
          'shrink guard unless the body says `{"accept_shrink": true}`. The body is optional.',
        params: Params,
        body: RefreshBody,
        response: { 200: RefreshResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      service.refresh(scopeOf(request), request.params.token, { acceptShrink: request.body.accept_shrink === true }),
  );

  app.get(
    '/:token/preview',
    {
      schema: {
        summary: 'Preview the public link',
        description:
          'Answers what the public link would send now for these request headers: the chosen format and rule, ' +
          'the servers served and skipped (with reasons), the response headers and the body. `format` given: ' +
          'rule `query`. A blocking rule answers format `block` with the refusal the link would send. ' +
          '`transforms` (JSON text) tries a chain without saving it; the answer then says what each operator did.',
        params: Params,
        querystring: PreviewQuery,
        response: { 200: PreviewResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await service.get(scopeOf(request), request.params.token);
      const { transforms, ...query } = request.query;
      return options.preview(request.params.token, { ...query, transforms: chainText(transforms) });
    },
  );

  app.post(
    '/:token/preview',
    {
      schema: {
        summary: 'Preview the public link with a chain',
        description:
          'GET .../preview with the same fields in a JSON body, `transforms` as a list: tries that chain without ' +
          'saving it and answers, in `steps`, the servers each operator was given and kept.',
        params: Params,
        body: PreviewBody,
        response: { 200: PreviewResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await service.get(scopeOf(request), request.params.token);
      return options.preview(request.params.token, request.body);
    },
  );

  app.get(
    '/:token/requests',
    {
      schema: {
        summary: 'Recent requests of the link',
        description:
          'The newest 100 public fetches of the link across every instance, newest first: time, format served, ' +
          'matched rule, status, user agent (first 256 characters), client network (/24 or /48) and servers ' +
          'served. Recorded in memory and written every few seconds; the history follows a rotation and is ' +
          'deleted with the subscription. Refusals are recorded only for a link the instance holds in memory.',
        params: Params,
        response: { 200: RequestHistoryResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      await service.get(scopeOf(request), request.params.token);
      return options.history.read(request.params.token);
    },
  );
};

/** The chain of GET .../preview, given as JSON text. */
function chainText(text: string | undefined): unknown[] | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw appErrors.invalidTransform(null, '`transforms` is not JSON text.');
  }
  if (!Array.isArray(value)) throw appErrors.invalidTransform(null, 'transforms must be an array of operators');
  return value;
}
