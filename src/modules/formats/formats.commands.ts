// The admin CLI's verbs for format rules, templates and format settings; documents are read from files so they can be kept in version control.
import { readFileSync } from 'node:fs';
import type { AdminCommand } from '../admin/admin.commands.js';
import { CommandUsageError } from '../admin/admin.commands.js';
import { pathSegment as seg } from '../admin/admin-client.js';

function readDocument(path: string | undefined): string {
  try {
    return readFileSync(path as string, 'utf8');
  } catch (error) {
    throw new CommandUsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** `{"rules": [...]}` or a bare array of rules. */
function ruleListFrom(path: string | undefined): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readDocument(path));
  } catch (error) {
    if (error instanceof CommandUsageError) throw error;
    throw new CommandUsageError(`${path} is not JSON`);
  }
  return Array.isArray(parsed) ? { rules: parsed } : parsed;
}

/** `xray_allow_insecure true|false` as the settings body; the only setting there is. */
function settingFrom(name: string | undefined, value: string | undefined): unknown {
  if (name !== 'xray_allow_insecure') throw new CommandUsageError(`unknown format setting ${name ?? ''}`.trim());
  if (value !== 'true' && value !== 'false') throw new CommandUsageError('the value must be true or false');
  return { xray_allow_insecure: value === 'true' };
}

export const FORMAT_COMMANDS: AdminCommand[] = [
  {
    verb: 'format-rules get',
    args: [],
    summary: 'Show the format rules in force.',
    example: 'format-rules get',
    build: () => ({ method: 'GET', path: '/format-rules' }),
  },
  {
    verb: 'format-rules set',
    args: ['<file.json>'],
    summary: 'Replace the whole rule list with the file\'s {"rules": [...]} (or a bare array).',
    example: 'format-rules set rules.json',
    build: (args) => ({ method: 'PUT', path: '/format-rules', body: ruleListFrom(args[0]) }),
  },
  {
    verb: 'format-rules reset',
    args: [],
    summary: 'Restore the built-in format rules.',
    example: 'format-rules reset',
    build: () => ({ method: 'DELETE', path: '/format-rules' }),
  },
  {
    verb: 'format-settings get',
    args: [],
    summary: 'Show the format settings (xray_allow_insecure).',
    example: 'format-settings get',
    build: () => ({ method: 'GET', path: '/format-settings' }),
  },
  {
    verb: 'format-settings set',
    args: ['<name>', '<true|false>'],
    summary: 'Write allowInsecure into the xray format for insecure links without a pin (for cores before 26.6.22).',
    example: 'format-settings set xray_allow_insecure true',
    build: (args) => ({ method: 'PUT', path: '/format-settings', body: settingFrom(args[0], args[1]) }),
  },
  {
    verb: 'templates get',
    args: ['<format>'],
    summary: 'Show the mihomo, sing-box or xray template.',
    example: 'templates get mihomo',
    build: (args) => ({ method: 'GET', path: `/templates/${seg(args[0] as string)}` }),
  },
  {
    verb: 'templates set',
    args: ['<format>', '<file>'],
    summary: 'Replace a template with the document in the file.',
    example: 'templates set sing-box singbox-template.json',
    build: (args) => ({
      method: 'PUT',
      path: `/templates/${seg(args[0] as string)}`,
      body: { template: readDocument(args[1]) },
    }),
  },
  {
    verb: 'templates reset',
    args: ['<format>'],
    summary: 'Restore the built-in template of a format.',
    example: 'templates reset xray',
    build: (args) => ({ method: 'DELETE', path: `/templates/${seg(args[0] as string)}` }),
  },
];
