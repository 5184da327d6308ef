// Unit tests for per-plugin route defaults: what a plugin fills in, what a route keeps, and where the defaults stop.
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { routeDefaults } from '../../src/http/route-defaults.js';
import { requestKind } from '../../src/http/route-kind.js';
import { errorResponses } from '../../src/http/schemas.js';

type Operation = { tags?: string[]; security?: unknown[]; responses: Record<string, unknown> };

async function documented(register: (app: FastifyInstance) => Promise<void>): Promise<Record<string, Operation>> {
  const app = Fastify();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      components: { securitySchemes: { apiToken: { type: 'apiKey', in: 'header', name: 'API-Token' } } },
    },
  });
  await register(app);
  await app.ready();
  const paths = (app.swagger() as { paths: Record<string, { get: Operation }> }).paths;
  await app.close();
  return Object.fromEntries(Object.entries(paths).map(([path, methods]) => [path, methods.get]));
}

describe('routeDefaults', () => {
  it('gives every route of the plugin its kind, tags, security and common errors, on top of its own responses', async () => {
    const ok = Type.Object({ ok: Type.Boolean() });
    const paths = await documented(async (app) => {
      await app.register(async (scope) => {
        routeDefaults(scope, { kind: 'user', tags: ['Mine'], security: [{ apiToken: [] }], errors: [401, 403] });
        scope.get('/plain', { schema: { response: { 200: ok } } }, async () => ({ ok: true }));
        scope.get('/own', { schema: { tags: ['Other'], response: { 200: ok, ...errorResponses(404) } } }, async () => ({
          ok: true,
        }));
      });
      await app.register(async (outside) => {
        routeDefaults(outside, { kind: 'infra' });
        outside.get('/outside', { schema: { response: { 200: ok } } }, async () => ({ ok: true }));
      });
    });
    expect(paths['/plain']?.tags).toEqual(['Mine']);
    expect(paths['/plain']?.security).toEqual([{ apiToken: [] }]);
    expect(Object.keys(paths['/plain']?.responses ?? {}).sort()).toEqual(['200', '401', '403']);
    expect(paths['/own']?.tags).toEqual(['Other']);
    expect(Object.keys(paths['/own']?.responses ?? {}).sort()).toEqual(['200', '401', '403', '404']);
    expect(paths['/outside']?.tags).toBeUndefined();
    expect(paths['/outside']?.security).toBeUndefined();
    expect(Object.keys(paths['/outside']?.responses ?? {})).toEqual(['200']);
  });

  it('sets the kind even on routes without a schema, and a route own kind wins', async () => {
    const app = Fastify();
    await app.register(async (scope) => {
      routeDefaults(scope, { kind: 'admin', tags: ['Admin'], errors: [401] });
      scope.get('/a', async (request) => ({ kind: requestKind(request) }));
      scope.get('/b', { config: { kind: 'infra' } }, async (request) => ({ kind: requestKind(request) }));
    });
    expect((await app.inject('/a')).json()).toEqual({ kind: 'admin' });
    expect((await app.inject('/b')).json()).toEqual({ kind: 'infra' });
    await app.close();
  });
});
