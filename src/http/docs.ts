// OpenAPI document (/openapi.json) and its browsable UI (/docs), generated from the route schemas.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

export async function registerDocs(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'subweave API',
        version: config.version,
        description:
          'Named proxy subscriptions served at one public link. Every non-2xx response is `{error, message, details}`.',
      },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: {
          apiToken: { type: 'apiKey', in: 'header', name: 'API-Token', description: 'User or provider API token.' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
