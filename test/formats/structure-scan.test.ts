// The pre-scan that refuses structured upstreams nested deeper than 64 or holding more than 1,000 aliases or merge keys, before any parser runs.
import { describe, expect, it } from 'vitest';
import { MAX_ALIASES, MAX_NESTING, structureProblem } from '../../src/formats/upstream/structure-scan.js';

/** `proxies:` holding `levels` mappings, each inside the one before (the profile's depth is levels + 1). */
const nestedKeys = (levels: number, eol = '\n'): string =>
  `proxies:${eol}${Array.from({ length: levels }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join(eol)} x${eol}`;
/** `proxies:` holding `pairs` levels of a sequence of mappings (compact `- key:` items). */
const nestedItems = (pairs: number): string =>
  `proxies:\n${Array.from({ length: pairs }, (_, i) => `${' '.repeat(i * 2)}- k${i}:`).join('\n')} x\n`;
const flow = (depth: number): string => `proxies: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
const json = (depth: number): string => `{"outbounds":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('structureProblem: nesting', () => {
  it.each([
    ['flow brackets', flow(MAX_NESTING - 1), flow(MAX_NESTING)],
    ['block mappings', nestedKeys(MAX_NESTING - 1), nestedKeys(MAX_NESTING)],
    ['block mappings with CR line breaks', nestedKeys(MAX_NESTING - 1, '\r'), nestedKeys(MAX_NESTING, '\r')],
    ['compact sequences of mappings', nestedItems(31), nestedItems(32)],
    [
      'items inside items on one line',
      `proxies:\n${'- '.repeat(MAX_NESTING - 2)}x\n`,
      `proxies:\n${'- '.repeat(MAX_NESTING)}x\n`,
    ],
  ])('allows %s 64 levels deep and refuses 65', (_label, allowed, refused) => {
    expect(structureProblem(allowed, false)).toBeNull();
    expect(structureProblem(refused, false)).toBe('nesting deeper than 64 levels');
  });

  it('counts JSON brackets outside strings only', () => {
    expect(structureProblem(json(MAX_NESTING - 1), true)).toBeNull();
    expect(structureProblem(json(MAX_NESTING), true)).toBe('nesting deeper than 64 levels');
    expect(structureProblem(`{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`, true)).toBeNull();
  });

  it('ignores brackets in quoted and plain scalars, comments and block scalars', () => {
    const profile = [
      'proxies:',
      ...Array.from({ length: 300 }, (_, i) =>
        [
          `  - name: US [Premium ${i} # a comment [[[`,
          `    password: "p[w{"`,
          `    note: 'it''s [open'`,
          `    plugin-opts: {mode: websocket, path: "/[x", headers: {Host: a.example.com}}`,
          `    script: |`,
          `${' '.repeat(6 + (i % 90) * 2)}deeply indented text`,
          `    port: 1`,
        ].join('\n'),
      ),
    ].join('\n');
    expect(structureProblem(profile, false)).toBeNull();
  });

  it('refuses a flow collection that hides behind a tab at the start of a line', () => {
    expect(structureProblem(`proxies:\n\t${'['.repeat(100)}${']'.repeat(100)}\n`, false)).not.toBeNull();
  });
});

describe('structureProblem: aliases and merge keys', () => {
  const merges = (count: number): string =>
    `base: &base {type: ss}\nproxies:\n${Array.from({ length: count }, (_, i) => `  - <<: *base\n    name: n${i}`).join('\n')}\n`;
  const aliases = (count: number): string =>
    `a: &a x\nproxies:\n  - [${Array.from({ length: count }, () => '*a').join(', ')}]\n`;

  it('allows 1,000 and refuses 1,001, in block and flow style', () => {
    expect(structureProblem(merges(MAX_ALIASES), false)).toBeNull();
    expect(structureProblem(merges(MAX_ALIASES + 1), false)).toBe('more than 1000 YAML merge keys');
    expect(structureProblem(aliases(MAX_ALIASES), false)).toBeNull();
    expect(structureProblem(aliases(MAX_ALIASES + 1), false)).toBe('more than 1000 YAML aliases');
  });

  it('does not take a star or << inside a scalar for an alias or a merge key', () => {
    const body = `proxies:\n${Array.from({ length: 1_500 }, (_, i) => `  - {name: "*n${i}", note: a*b, path: "<<"}`).join('\n')}\n`;
    expect(structureProblem(body, false)).toBeNull();
  });
});
