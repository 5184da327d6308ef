// The admin CLI's verbs for the admins' webhook endpoints (`subweave admin webhooks ...`), one per endpoint of the API.
import type { AdminCommand, CommandOptions } from '../modules/admin/admin.commands.js';
import { CommandUsageError } from '../modules/admin/admin.commands.js';
import { pathSegment as seg } from '../modules/admin/admin-client.js';

function enabledOption(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw !== 'true' && raw !== 'false') throw new CommandUsageError('--enabled must be true or false');
  return raw === 'true';
}

/** The fields given on the command line, as the body of create or PATCH (`--url` names the server to call). */
function fields(options: CommandOptions): Record<string, unknown> {
  const enabled = enabledOption(options.enabled);
  return {
    ...(options['endpoint-url'] !== undefined ? { url: options['endpoint-url'] } : {}),
    ...(options.events !== undefined ? { events: options.events.split(',').map((type) => type.trim()) } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(enabled !== undefined ? { enabled } : {}),
  };
}

const hook = (args: string[], rest = '') => `/webhooks/${seg(args[0] as string)}${rest}`;

export const WEBHOOK_COMMANDS: AdminCommand[] = [
  {
    verb: 'webhooks create',
    args: ['<url>'],
    options: '[--events <type,...>] [--description <text>] [--enabled true|false]',
    summary: 'Create a webhook endpoint (events default to all); prints its secret (shown once).',
    example: 'webhooks create https://example.com/hook --events subscription.created,subscription.deleted',
    build: (args, options) => ({
      method: 'POST',
      path: '/webhooks',
      body: { events: ['*'], ...fields(options), url: args[0] },
    }),
  },
  {
    verb: 'webhooks list',
    args: [],
    summary: 'List the admin webhook endpoints.',
    example: 'webhooks list',
    build: () => ({ method: 'GET', path: '/webhooks' }),
  },
  {
    verb: 'webhooks get',
    args: ['<id>'],
    summary: 'Show a webhook endpoint.',
    example: 'webhooks get wh_abc',
    build: (args) => ({ method: 'GET', path: hook(args) }),
  },
  {
    verb: 'webhooks update',
    args: ['<id>'],
    options: '[--endpoint-url <url>] [--events <type,...>] [--description <text>] [--enabled true|false]',
    summary: 'Change a webhook endpoint.',
    example: 'webhooks update wh_abc --enabled true',
    build: (args, options) => ({ method: 'PATCH', path: hook(args), body: fields(options) }),
  },
  {
    verb: 'webhooks delete',
    args: ['<id>'],
    summary: 'Delete a webhook endpoint with its delivery log.',
    example: 'webhooks delete wh_abc',
    build: (args) => ({ method: 'DELETE', path: hook(args) }),
  },
  {
    verb: 'webhooks rotate-secret',
    args: ['<id>'],
    summary: 'Make a new signing secret (shown once); the old one also signs for 24 h.',
    example: 'webhooks rotate-secret wh_abc',
    build: (args) => ({ method: 'POST', path: hook(args, '/rotate-secret') }),
  },
  {
    verb: 'webhooks test',
    args: ['<id>'],
    summary: 'Send a webhook.test event to the endpoint.',
    example: 'webhooks test wh_abc',
    build: (args) => ({ method: 'POST', path: hook(args, '/test') }),
  },
  {
    verb: 'webhooks deliveries',
    args: ['<id>'],
    options: '[--limit <n>]',
    summary: 'The delivery log of an endpoint, newest first.',
    example: 'webhooks deliveries wh_abc --limit 20',
    build: (args, options) => ({
      method: 'GET',
      path: hook(args, '/deliveries'),
      ...(options.limit !== undefined ? { query: { limit: options.limit } } : {}),
    }),
  },
  {
    verb: 'webhooks redeliver',
    args: ['<id>', '<delivery_id>'],
    summary: 'Deliver a message again now.',
    example: 'webhooks redeliver wh_abc msg_def',
    build: (args) => ({ method: 'POST', path: hook(args, `/deliveries/${seg(args[1] as string)}/redeliver`) }),
  },
];
