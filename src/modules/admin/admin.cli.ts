// `subweave admin <verb> ...`: signs and sends admin API requests to a running server and prints the JSON answer.
import { parseArgs } from 'node:util';
import type { CliIo } from '../../cli.js';
import { sendAdminRequest } from './admin-client.js';
import { ADMIN_COMMANDS, CommandUsageError, type AdminCommand, type CommandOptions } from './admin.commands.js';

const OPTIONS = {
  url: { type: 'string' },
  period: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  duration: { type: 'string' },
  description: { type: 'string' },
  active: { type: 'string' },
  name: { type: 'string' },
  'provider-url': { type: 'string' },
  actor: { type: 'string' },
  action: { type: 'string' },
  target: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  cursor: { type: 'string' },
  search: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  'endpoint-url': { type: 'string' },
  events: { type: 'string' },
  enabled: { type: 'string' },
  'service-name': { type: 'string' },
  logo: { type: 'string' },
  'accent-color': { type: 'string' },
  'support-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function adminHelp(): string {
  const usage = (c: AdminCommand) => [c.verb, ...c.args, ...(c.options ? [c.options] : [])].join(' ');
  return `Usage: subweave admin <verb> [arguments] [--url <server>]

Signs each request with ADMIN_SECRET (HMAC-SHA256, see docs/admin-api.md), sends it to the admin API and prints
the JSON answer. Exit status: 0 on success, 1 when the server refuses (its error is printed on stderr) or cannot be
reached, 2 for a usage error.

Verbs:
${ADMIN_COMMANDS.map((c) => `  ${usage(c)}\n      ${c.summary}`).join('\n')}

Options:
  --url <server>   Base URL of the server (default http://127.0.0.1:$PORT, PORT defaulting to 8080).
  -h, --help       Show this help.

Environment:
  ADMIN_SECRET     The server's admin secret (required). The server wants at least 16 characters (32 or more
                   without a warning); make one with: openssl rand -base64 32
  PORT             Used for the default --url.

CIDR ranges in paths are percent-encoded for you (10.0.0.0/24 is sent as 10.0.0.0%2F24).

Examples:
${ADMIN_COMMANDS.map((c) => `  subweave admin ${c.example}`).join('\n')}
  subweave admin stats --period week --url https://subs.example.com
`;
}

class UsageError extends Error {}

function findCommand(positionals: string[]): { command: AdminCommand; args: string[] } {
  for (const words of [2, 1]) {
    const verb = positionals.slice(0, words).join(' ');
    const command = ADMIN_COMMANDS.find((c) => c.verb === verb);
    if (command) return { command, args: positionals.slice(words) };
  }
  throw new UsageError(`unknown admin verb: ${positionals.slice(0, 2).join(' ') || '(none)'}`);
}

function checkArgCount(command: AdminCommand, args: string[]): void {
  const required = command.args.filter((a) => a.startsWith('<')).length;
  if (args.length < required || args.length > command.args.length) {
    throw new UsageError(`usage: subweave admin ${[command.verb, ...command.args].join(' ')}`);
  }
}

/** Runs one admin command; resolves to the process exit status. */
export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usageFailure(io, (error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0 || positionals[0] === 'help') {
    io.stdout.write(adminHelp());
    return 0;
  }
  let request;
  try {
    const { command, args } = findCommand(positionals);
    checkArgCount(command, args);
    request = command.build(args, values as CommandOptions);
  } catch (error) {
    if (error instanceof UsageError || error instanceof CommandUsageError) return usageFailure(io, error.message);
    throw error;
  }
  const secret = env['ADMIN_SECRET']?.trim();
  if (!secret) {
    io.stderr.write('subweave: ADMIN_SECRET must be set to sign admin requests\n');
    return 1;
  }
  const baseUrl = values.url ?? `http://127.0.0.1:${env['PORT']?.trim() || '8080'}`;
  let response;
  try {
    response = await sendAdminRequest(baseUrl, secret, request);
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    io.stderr.write(`subweave: cannot reach ${baseUrl}: ${cause}\n`);
    return 1;
  }
  const ok = response.status >= 200 && response.status < 300;
  const text = response.body === null ? '' : `${JSON.stringify(response.body, null, 2)}\n`;
  if (ok) {
    io.stdout.write(text);
    if (response.status === 204) io.stderr.write('done (204 No Content)\n');
    return 0;
  }
  io.stderr.write(text || `HTTP ${response.status}\n`);
  return 1;
}

function usageFailure(io: CliIo, message: string): number {
  io.stderr.write(`subweave admin: ${message}\nRun \`subweave admin --help\` for the verbs and examples.\n`);
  return 2;
}
