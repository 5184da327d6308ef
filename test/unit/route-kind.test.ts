// Unit tests for route kinds: plugin defaults, per-route overrides, unmatched requests, and the start-up check.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { defaultRouteKind, requestKind, requireRouteKinds } from '../../src/http/route-kind.js';

describe('route kinds', () => {
  it('fills in the plugin default, keeps a route own kind, and calls unmatched requests anonymous', async () => {
    const app = Fastify();
    requireRouteKinds(app);
    app.setNotFoundHandler((request, reply) => reply.code(404).send({ kind: requestKind(request) }));
    await app.register(async (scope) => {
      defaultRouteKind(scope, 'user');
      scope.get('/a', async (request) => ({ kind: requestKind(request) }));
      scope.get('/b', { config: { kind: 'infra' } }, async (request) => ({ kind: requestKind(request) }));
    });
    expect((await app.inject('/a')).json()).toEqual({ kind: 'user' });
    expect((await app.inject({ method: 'HEAD', url: '/a' })).statusCode).toBe(200);
    expect((await app.inject('/b')).json()).toEqual({ kind: 'infra' });
    expect((await app.inject('/%61')).json()).toEqual({ kind: 'user' });
    expect((await app.inject('/c')).json()).toEqual({ kind: 'anonymous' });
    await app.close();
  });

  it('refuses to start when a route declares no kind', async () => {
    const app = Fastify();
    requireRouteKinds(app);
    app.get('/forgotten', async () => 'x');
    await expect(app.ready()).rejects.toThrow(/Routes without a kind: GET \/forgotten/);
    await app.close().catch(() => undefined);
  });
});
