// The branding endpoints: the admin's GET and PUT under /api/v1/admin, and the public read-only view the dashboard loads.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.js';
import { routeDefaults } from '../../http/route-defaults.js';
import type { BrandingSettings } from './branding.js';
import { BrandingBody, BrandingResponse, PublicBrandingResponse } from './branding.schemas.js';

/** Mounted inside the admin routes, behind their allowlist and signature guards. */
export const brandingAdminRoutes: FastifyPluginAsync<{ branding: BrandingSettings }> = async (
  fastify,
  { branding },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/branding',
    {
      schema: {
        summary: 'Branding',
        description: 'The service name, logo, accent colour and default support link the pages show.',
        response: { 200: BrandingResponse },
      },
    },
    async () => branding.current,
  );

  app.put(
    '/branding',
    {
      schema: {
        summary: 'Change the branding',
        description:
          'Sets the given fields (a field left out keeps its value, `null` clears it) and answers like GET. A refused ' +
          'body changes nothing (400 validation_failed naming each bad field). Every instance shows the new branding ' +
          'within a second; emits `settings.changed` with `setting: "branding"` and the changed `fields`.',
        body: BrandingBody,
        response: { 200: BrandingResponse, ...errorResponses(400) },
      },
    },
    async (request) => branding.update(request.body),
  );
};

/** GET /api/v1/branding: no authentication; the default support link is left out (it is shown on the pages). */
export const brandingPublicRoutes: FastifyPluginAsync<{ branding: BrandingSettings }> = async (
  fastify,
  { branding },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  routeDefaults(app, { kind: 'page', tags: ['Branding'] });
  app.get(
    '/api/v1/branding',
    {
      schema: {
        summary: 'Public branding',
        description:
          'The service name, logo and accent colour set by the admin (null when unset), for the dashboard. No ' +
          'authentication.',
        response: { 200: PublicBrandingResponse },
      },
    },
    async (_request, reply) => {
      const { service_name, logo, accent_color } = branding.current;
      reply.header('cache-control', 'no-cache');
      return { service_name, logo, accent_color };
    },
  );
};
