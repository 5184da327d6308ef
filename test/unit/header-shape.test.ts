import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keptHeaderShapes } from '../../src/shared/header-shape.js';

const probe = fileURLToPath(new URL('./fixtures/header-shape-probe.ts', import.meta.url));

/** Two requests' headers in a fresh process whose `{}` transitions start-up has used up: one shape or two? */
function probeShapes(mode: 'seeded' | 'not-seeded'): { requests: number; sameShape: boolean } {
  const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', probe, mode], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as { requests: number; sameShape: boolean };
}

describe('header shape', () => {
  it('keeps one object per seeded first header, built as node:http builds headers', () => {
    const firstKeys = keptHeaderShapes().map((headers) => Object.keys(headers));
    expect(firstKeys[0]).toEqual(['host']);
    expect(firstKeys.every((keys) => keys.length === 1)).toBe(true);
    expect(new Set(firstKeys.flat()).size).toBe(firstKeys.length);
  });

  it('is imported by the CLI before any other module of ours', () => {
    const cli = readFileSync(fileURLToPath(new URL('../../src/cli.ts', import.meta.url)), 'utf8');
    const imports = [...cli.matchAll(/^import .*?'([^']+)';$/gm)].map((match) => match[1]);
    expect(imports.slice(0, 2)).toEqual(['./shared/tick-shape.js', './shared/header-shape.js']);
  });

  it('without it, each request gets a headers shape of its own once start-up has used up the transitions of {}', () => {
    expect(probeShapes('not-seeded')).toMatchObject({ requests: 2, sameShape: false });
  });

  it('with it imported first, every request that starts with Host shares one headers shape', () => {
    expect(probeShapes('seeded')).toMatchObject({ requests: 2, sameShape: true });
  });
});
