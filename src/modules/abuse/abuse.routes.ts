// Admin endpoints for IP bans and the whitelist (mounted under /api/v1/admin, behind the allowlist and signature).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import { parseIpRange, type IpRange } from '../../net/ip.js';
import type { AbuseControls } from './abuse.service.js';
import {
  BanBody,
  BanListResponse,
  BanResponse,
  BanStatusResponse,
  IpParams,
  UnbanResponse,
  UnwhitelistResponse,
  WhitelistBody,
  WhitelistEntry,
  WhitelistListResponse,
} from './abuse.schemas.js';

/** The canonical range of an `ip_address` field, or 400 validation_failed naming the field. */
function ipField(value: string, path: string): IpRange {
  const range = parseIpRange(value.trim());
  if (!range) {
    throw errors.validation('ip_address is not an IP address or CIDR range.', [
      { path, message: 'must be an IPv4 or IPv6 address or CIDR range' },
    ]);
  }
  return range;
}

export interface AbuseRoutesOptions {
  controls: AbuseControls;
  defaultBanSeconds: number;
}

export const abuseRoutes: FastifyPluginAsync<AbuseRoutesOptions> = async (fastify, { controls, defaultBanSeconds }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/ban',
    {
      schema: {
        summary: 'Ban an address or range',
        description:
          'Bans an IPv4/IPv6 address or CIDR range from the public, user and provider endpoints (403 ip_banned) for ' +
          '`duration_seconds` (default DEFAULT_BAN_SECONDS). Banning again replaces the end time. Whitelisted ' +
          'addresses are stored but not enforced.',
        body: BanBody,
        response: { 201: BanResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const range = ipField(request.body.ip_address, 'body.ip_address');
      const ban = await controls.ban(range, request.body.duration_seconds ?? defaultBanSeconds, 'admin');
      return reply.status(201).send(ban);
    },
  );

  app.get(
    '/ban/:ip_address',
    {
      schema: {
        summary: 'Ban state of an address or range',
        description:
          'Reports whether a ban is in force for the address (its own, or a banned range containing it) or the ' +
          'range. A stored ban on a whitelisted address is reported too.',
        params: IpParams,
        response: { 200: BanStatusResponse, ...errorResponses(400) },
      },
    },
    async (request) => controls.status(ipField(request.params.ip_address, 'params.ip_address')),
  );

  app.delete(
    '/ban/:ip_address',
    {
      schema: {
        summary: 'Lift a ban',
        description:
          'Removes the stored ban of exactly this address or range. Safe to repeat: was_banned is then false.',
        params: IpParams,
        response: { 200: UnbanResponse, ...errorResponses(400) },
      },
    },
    async (request) => controls.unban(ipField(request.params.ip_address, 'params.ip_address')),
  );

  app.get(
    '/bans',
    {
      schema: {
        summary: 'List bans in force',
        description: 'Every ban that has not expired yet, the longest-lasting first.',
        response: { 200: BanListResponse },
      },
    },
    async () => {
      const entries = await controls.listBans();
      return { total: entries.length, entries };
    },
  );

  app.post(
    '/whitelist',
    {
      schema: {
        summary: 'Whitelist an address or range',
        description:
          'Exempts an IPv4/IPv6 address or CIDR range from bans and rate limits. Adding an existing entry keeps ' +
          'its added_at and replaces its description when one is given.',
        body: WhitelistBody,
        response: { 201: WhitelistEntry, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const range = ipField(request.body.ip_address, 'body.ip_address');
      const description = request.body.description === null ? '' : request.body.description;
      return reply.status(201).send(await controls.whitelist(range, description));
    },
  );

  app.get(
    '/whitelist',
    {
      schema: {
        summary: 'List the whitelist',
        description: 'Every whitelisted address and range, oldest first.',
        response: { 200: WhitelistListResponse },
      },
    },
    async () => {
      const entries = await controls.listWhitelist();
      return { total: entries.length, entries };
    },
  );

  app.delete(
    '/whitelist/:ip_address',
    {
      schema: {
        summary: 'Remove a whitelist entry',
        description: 'Removes exactly this address or range (percent-encode the slash of a CIDR). Safe to repeat.',
        params: IpParams,
        response: { 200: UnwhitelistResponse, ...errorResponses(400) },
      },
    },
    async (request) => controls.unwhitelist(ipField(request.params.ip_address, 'params.ip_address')),
  );
};
