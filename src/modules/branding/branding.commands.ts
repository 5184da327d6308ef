// The admin CLI's `branding get|set`: the logo is read from an image file and sent as a data URL.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { AdminCommand, CommandOptions } from '../admin/admin.commands.js';
import { CommandUsageError } from '../admin/admin.commands.js';

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** An empty value clears the field; `--logo` names a .png, .jpg, .webp or .svg file. */
function brandingBody(options: CommandOptions): Record<string, string | null> {
  const body: Record<string, string | null> = {};
  const given = (value: string | undefined) => (value === '' ? null : value);
  if (options['service-name'] !== undefined) body['service_name'] = given(options['service-name']) ?? null;
  if (options['accent-color'] !== undefined) body['accent_color'] = given(options['accent-color']) ?? null;
  if (options['support-url'] !== undefined) body['support_url'] = given(options['support-url']) ?? null;
  if (options.logo !== undefined) body['logo'] = options.logo === '' ? null : logoDataUrl(options.logo);
  if (Object.keys(body).length === 0) {
    throw new CommandUsageError('give at least one of --service-name, --logo, --accent-color, --support-url');
  }
  return body;
}

function logoDataUrl(path: string): string {
  const type = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!type) throw new CommandUsageError('--logo must name a .png, .jpg, .webp or .svg file');
  try {
    return `data:${type};base64,${readFileSync(path).toString('base64')}`;
  } catch (error) {
    throw new CommandUsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

export const BRANDING_COMMANDS: AdminCommand[] = [
  {
    verb: 'branding get',
    args: [],
    summary: 'Show the branding (service name, logo, accent colour, default support link).',
    example: 'branding get',
    build: () => ({ method: 'GET', path: '/branding' }),
  },
  {
    verb: 'branding set',
    args: [],
    options: '[--service-name <name>] [--logo <file>] [--accent-color <#rrggbb>] [--support-url <url>]',
    summary: 'Change the given branding fields; an empty value ("") clears one.',
    example: 'branding set --service-name "Family VPN" --logo logo.svg --accent-color "#0a7d5a"',
    build: (_args, options) => ({ method: 'PUT', path: '/branding', body: brandingBody(options) }),
  },
];
