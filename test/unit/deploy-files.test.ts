// deploy/env.example and deploy/subweave.service must stay true to src/config.ts: every variable, valid values, timeouts.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The variables config.ts reads (through its value/int/bool/ipList/secondsList helpers). */
function configVariables(): string[] {
  const names = [...read('src/config.ts').matchAll(/\b(?:value|int|bool|ipList|secondsList)\('([A-Z0-9_]+)'/g)].map(
    (m) => m[1],
  );
  return [...new Set(names as string[])].sort();
}

/** systemd's EnvironmentFile syntax as the example uses it: VARIABLE=value lines, `#` comments. */
function assignments(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (match) env[match[1] as string] = match[2] as string;
  }
  return env;
}

/** A `KEY=value` setting of the unit file (the last one wins, as systemd reads these keys). */
function setting(unit: string, key: string): string {
  const value = [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]).at(-1);
  if (value === undefined) throw new Error(`subweave.service has no ${key}=`);
  return value;
}

describe('deploy/env.example', () => {
  const example = read('deploy/env.example');

  it('mentions every variable config.ts reads, and no other', () => {
    const mentioned = [...example.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] as string);
    expect(configVariables().length).toBeGreaterThan(30);
    expect([...new Set(mentioned)].sort()).toEqual(configVariables());
  });

  it('is a valid configuration for a single node behind a local proxy', () => {
    const config = loadConfig(assignments(example));
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicBaseUrl).toMatch(/^https:\/\//);
    expect(config.trustProxy.length).toBeGreaterThan(0);
    expect(config.databaseUrl).toMatch(/^sqlite:\//);
  });
});

describe('deploy/subweave.service', () => {
  const unit = read('deploy/subweave.service');
  const env = assignments(read('deploy/env.example'));

  it('runs the built CLI as `npm start` does, with the documented environment file', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(setting(unit, 'ExecStart')).toBe(`/usr/bin/${start}`);
    expect(start).toBe('node --max-semi-space-size=32 dist/cli.js serve');
    expect(setting(unit, 'EnvironmentFile')).toBe('/etc/subweave/env');
    expect(setting(unit, 'Restart')).toBe('on-failure');
    expect(setting(unit, 'User')).not.toBe('root');
  });

  it('lets the process write the SQLite folder of env.example and nothing else', () => {
    expect(setting(unit, 'ProtectSystem')).toBe('strict');
    const folder = dirname((env['DATABASE_URL'] as string).slice('sqlite:'.length));
    expect(setting(unit, 'ReadWritePaths')).toBe(folder);
    expect(folder.startsWith(`${setting(unit, 'WorkingDirectory')}/`)).toBe(true);
  });

  it('waits longer than SHUTDOWN_TIMEOUT_MS before killing the process', () => {
    const stopSeconds = Number(/^(\d+)s$/.exec(setting(unit, 'TimeoutStopSec'))?.[1]);
    expect(stopSeconds * 1000).toBeGreaterThan(loadConfig(env).shutdownTimeoutMs);
  });
});
