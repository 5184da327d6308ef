// The admin CLI's verbs: one entry per admin API endpoint, mapping command-line arguments to a request (and to help text).
import type { AdminRequest } from './admin-client.js';
import { pathSegment as seg } from './admin-client.js';
import { FORMAT_COMMANDS } from '../formats/formats.commands.js';
import { BRANDING_COMMANDS } from '../branding/branding.commands.js';
import { WEBHOOK_COMMANDS } from '../../webhooks/webhooks.commands.js';

export interface CommandOptions {
  period?: string;
  start?: string;
  end?: string;
  duration?: string;
  description?: string;
  active?: string;
  name?: string;
  'provider-url'?: string;
  actor?: string;
  action?: string;
  target?: string;
  since?: string;
  until?: string;
  cursor?: string;
  search?: string;
  status?: string;
  limit?: string;
  'endpoint-url'?: string;
  events?: string;
  enabled?: string;
  'service-name'?: string;
  logo?: string;
  'accent-color'?: string;
  'support-url'?: string;
}

export interface AdminCommand {
  /** Words after `subweave admin`, e.g. `users create`. */
  verb: string;
  /** Positional arguments; names in [brackets] are optional and must come last. */
  args: string[];
  options?: string;
  summary: string;
  example: string;
  build(args: string[], options: CommandOptions): AdminRequest;
}

export class CommandUsageError extends Error {}

function userId(raw: string | undefined): number {
  if (!raw || !/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new CommandUsageError('user_id must be a positive integer');
  }
  return Number(raw);
}

function arg(args: string[], index: number): string {
  return args[index] as string; // presence is checked against `args` before build runs
}

function boolOption(raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new CommandUsageError(`--${name} must be true or false`);
}

function durationOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new CommandUsageError('--duration must be a whole number of seconds');
  return Number(raw);
}

const user =
  (action: string) =>
  (args: string[]): AdminRequest => ({ method: 'POST', path: `/users/${userId(args[0])}/${action}` });
const connection =
  (action: string) =>
  (args: string[]): AdminRequest => ({
    method: 'POST',
    path: `/users/${userId(args[0])}/providers/${seg(arg(args, 1))}/${action}`,
  });

export const ADMIN_COMMANDS: AdminCommand[] = [
  {
    verb: 'users create',
    args: ['<user_id>'],
    summary: 'Create a user; prints it with its API token (shown once).',
    example: 'users create 42',
    build: (args) => ({ method: 'POST', path: '/users', body: { user_id: userId(args[0]) } }),
  },
  {
    verb: 'users list',
    args: [],
    options: '[--search <digits>] [--status active|disabled] [--cursor <c>] [--limit <n>]',
    summary: 'Users newest first with their subscription counts (next_cursor pages on).',
    example: 'users list --status disabled --limit 20',
    build: (_args, options) => {
      const names = ['search', 'status', 'cursor', 'limit'] as const;
      const query: Record<string, string> = {};
      for (const name of names) if (options[name] !== undefined) query[name] = options[name];
      return { method: 'GET', path: '/users', query };
    },
  },
  {
    verb: 'users get',
    args: ['<user_id>'],
    summary: 'Show a user.',
    example: 'users get 42',
    build: (args) => ({ method: 'GET', path: `/users/${userId(args[0])}` }),
  },
  {
    verb: 'users activate',
    args: ['<user_id>'],
    summary: 'Enable a user.',
    example: 'users activate 42',
    build: (args) => ({ method: 'PATCH', path: `/users/${userId(args[0])}`, body: { is_active: true } }),
  },
  {
    verb: 'users deactivate',
    args: ['<user_id>'],
    summary: 'Disable a user: its token gets 403 and its links 404.',
    example: 'users deactivate 42',
    build: (args) => ({ method: 'PATCH', path: `/users/${userId(args[0])}`, body: { is_active: false } }),
  },
  {
    verb: 'users delete',
    args: ['<user_id>'],
    summary: 'Delete a user with everything they own.',
    example: 'users delete 42',
    build: (args) => ({ method: 'DELETE', path: `/users/${userId(args[0])}` }),
  },
  {
    verb: 'users refresh-token',
    args: ['<user_id>'],
    summary: "Re-issue a user's API token (the old one stops working).",
    example: 'users refresh-token 42',
    build: user('refresh-token'),
  },
  {
    verb: 'users sign-in-link',
    args: ['<user_id>'],
    summary: 'Mint a one-time link that signs the user in to the browser app (valid 15 minutes).',
    example: 'users sign-in-link 42',
    build: user('sign-in-link'),
  },
  {
    verb: 'providers create',
    args: ['<owner_hash>', '<provider_name>', '[provider_url]'],
    summary: 'Create a provider owned by the user with this user_hash; prints its API token (shown once).',
    example: 'providers create 0b6c6f5e-4a0f-4c8e-9d1e-3f2a1b0c9d8e mybot https://t.me/mybot',
    build: (args) => ({
      method: 'POST',
      path: '/providers',
      body: { owner_hash: arg(args, 0), provider_name: arg(args, 1), provider_url: args[2] ?? '' },
    }),
  },
  {
    verb: 'providers list',
    args: [],
    summary: 'List every provider.',
    example: 'providers list',
    build: () => ({ method: 'GET', path: '/providers' }),
  },
  {
    verb: 'providers get-by-name',
    args: ['<provider_name>'],
    summary: 'Show the provider with this name.',
    example: 'providers get-by-name mybot',
    build: (args) => ({ method: 'GET', path: `/providers/by-name/${seg(arg(args, 0))}` }),
  },
  {
    verb: 'providers get-by-owner',
    args: ['<owner_id>'],
    summary: 'Show the provider owned by this user_id.',
    example: 'providers get-by-owner 42',
    build: (args) => ({ method: 'GET', path: `/providers/by-owner/${userId(args[0])}` }),
  },
  {
    verb: 'providers update',
    args: ['<provider_hash>'],
    options: '[--active true|false] [--name <name>] [--provider-url <url>]',
    summary: 'Change a provider (at least one option).',
    example: 'providers update 5d0c...e1 --active false',
    build: (args, options) => {
      const body: Record<string, unknown> = {};
      const active = boolOption(options.active, 'active');
      if (active !== undefined) body['is_active'] = active;
      if (options.name !== undefined) body['provider_name'] = options.name;
      if (options['provider-url'] !== undefined) body['provider_url'] = options['provider-url'];
      if (Object.keys(body).length === 0)
        throw new CommandUsageError('give at least one of --active, --name, --provider-url');
      return { method: 'PATCH', path: `/providers/${seg(arg(args, 0))}`, body };
    },
  },
  {
    verb: 'providers delete',
    args: ['<provider_hash>'],
    summary: 'Delete a provider and the subscriptions it manages.',
    example: 'providers delete 5d0c...e1',
    build: (args) => ({ method: 'DELETE', path: `/providers/${seg(arg(args, 0))}` }),
  },
  {
    verb: 'providers refresh-token',
    args: ['<provider_hash>'],
    summary: "Re-issue a provider's API token.",
    example: 'providers refresh-token 5d0c...e1',
    build: (args) => ({ method: 'POST', path: `/providers/${seg(arg(args, 0))}/refresh-token` }),
  },
  {
    verb: 'authorize',
    args: ['<provider_name>', '<user_id>', '<invite>'],
    summary: 'Process the invite of a connection link: opens a pending connection.',
    example: 'authorize mybot 42 "Qk9...xyz.1767225600"',
    build: (args) => ({
      method: 'POST',
      path: `/providers/${seg(arg(args, 0))}/authorize/${userId(args[1])}`,
      body: { invite: arg(args, 2) },
    }),
  },
  {
    verb: 'connections list',
    args: ['<user_id>'],
    summary: "List a user's provider connections (every status).",
    example: 'connections list 42',
    build: (args) => ({ method: 'GET', path: `/users/${userId(args[0])}/providers` }),
  },
  {
    verb: 'connections get',
    args: ['<user_id>', '<provider_name>'],
    summary: 'Show one connection.',
    example: 'connections get 42 mybot',
    build: (args) => ({ method: 'GET', path: `/users/${userId(args[0])}/providers/${seg(arg(args, 1))}` }),
  },
  {
    verb: 'connections approve',
    args: ['<user_id>', '<provider_name>'],
    summary: 'Approve a pending connection.',
    example: 'connections approve 42 mybot',
    build: connection('approve'),
  },
  {
    verb: 'connections reject',
    args: ['<user_id>', '<provider_name>'],
    summary: 'Reject a pending connection.',
    example: 'connections reject 42 mybot',
    build: connection('reject'),
  },
  {
    verb: 'ban add',
    args: ['<ip_or_cidr>'],
    options: '[--duration <seconds>]',
    summary: 'Ban an address or range (default duration: DEFAULT_BAN_SECONDS on the server).',
    example: 'ban add 203.0.113.0/24 --duration 86400',
    build: (args, options) => {
      const duration = durationOption(options.duration);
      return {
        method: 'POST',
        path: '/ban',
        body: { ip_address: arg(args, 0), ...(duration !== undefined ? { duration_seconds: duration } : {}) },
      };
    },
  },
  {
    verb: 'ban get',
    args: ['<ip_or_cidr>'],
    summary: 'Show whether an address or range is banned.',
    example: 'ban get 203.0.113.7',
    build: (args) => ({ method: 'GET', path: `/ban/${seg(arg(args, 0))}` }),
  },
  {
    verb: 'ban remove',
    args: ['<ip_or_cidr>'],
    summary: 'Lift a ban (safe to repeat).',
    example: 'ban remove 203.0.113.0/24',
    build: (args) => ({ method: 'DELETE', path: `/ban/${seg(arg(args, 0))}` }),
  },
  {
    verb: 'ban list',
    args: [],
    summary: 'List the bans in force.',
    example: 'ban list',
    build: () => ({ method: 'GET', path: '/bans' }),
  },
  {
    verb: 'whitelist add',
    args: ['<ip_or_cidr>'],
    options: '[--description <text>]',
    summary: 'Exempt an address or range from bans and rate limits.',
    example: 'whitelist add 10.0.0.0/8 --description "office"',
    build: (args, options) => ({
      method: 'POST',
      path: '/whitelist',
      body: {
        ip_address: arg(args, 0),
        ...(options.description !== undefined ? { description: options.description } : {}),
      },
    }),
  },
  {
    verb: 'whitelist list',
    args: [],
    summary: 'List the whitelist.',
    example: 'whitelist list',
    build: () => ({ method: 'GET', path: '/whitelist' }),
  },
  {
    verb: 'whitelist remove',
    args: ['<ip_or_cidr>'],
    summary: 'Remove a whitelist entry.',
    example: 'whitelist remove 10.0.0.0/8',
    build: (args) => ({ method: 'DELETE', path: `/whitelist/${seg(arg(args, 0))}` }),
  },
  {
    verb: 'stats',
    args: [],
    options: '[--period day|week|month | --start <iso> [--end <iso>]]',
    summary: 'Usage statistics (default: the last 7 days).',
    example: 'stats --start 2025-01-01 --end 2025-02-01',
    build: (_args, options) => {
      const query: Record<string, string> = {};
      if (options.period !== undefined) query['period'] = options.period;
      if (options.start !== undefined) query['start_date'] = options.start;
      if (options.end !== undefined) query['end_date'] = options.end;
      return { method: 'GET', path: '/stats', query };
    },
  },
  {
    verb: 'audit',
    args: [],
    options:
      '[--actor <kind[:id]>] [--action <a.b>] [--target <t>] [--since <iso>] [--until <iso>] [--cursor <c>] [--limit <n>]',
    summary: 'The audit log, newest first (next_cursor pages back).',
    example: 'audit --actor provider:mybot --since 2025-01-01T00:00:00Z',
    build: (_args, options) => {
      const names = ['actor', 'action', 'target', 'since', 'until', 'cursor', 'limit'] as const;
      const query: Record<string, string> = {};
      for (const name of names) if (options[name] !== undefined) query[name] = options[name];
      return { method: 'GET', path: '/audit', query };
    },
  },
  ...FORMAT_COMMANDS,
  ...BRANDING_COMMANDS,
  ...WEBHOOK_COMMANDS,
];
