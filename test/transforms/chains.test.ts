// Chains where operator order matters, hostile patterns, and a full 32-operator chain over 10,000 servers.
import { describe, expect, it } from 'vitest';
import { BENCH_CHAIN, REGIONS, benchServers } from '../../bench/transforms-data.js';
import { MAX_OPERATORS } from '../../src/modules/transforms/operators.js';
import { named, run, server } from './servers.js';

describe('order matters', () => {
  const servers = named('[P] JP-01', '[P] SG-01');
  const rename = { op: 'rename', pattern: '^\\[P\\] JP-0*(\\d+)$', replace: 'Tokyo $1' };
  const include = { op: 'include', pattern: '^Tokyo' };

  it('rename then include keeps the renamed server; include then rename keeps nothing', () => {
    expect(run(servers, [rename, include]).names).toEqual(['Tokyo 1']);
    expect(run(servers, [include, rename]).names).toEqual([]);
  });

  it('flag then dedupe by name folds a flagged and an unflagged copy; dedupe then flag keeps both', () => {
    const copies = named('Tokyo 01', '🇯🇵 Tokyo 01');
    expect(run(copies, [{ op: 'flag' }, { op: 'dedupe', by: 'name' }]).names).toEqual(['🇯🇵 Tokyo 01']);
    expect(run(copies, [{ op: 'dedupe', by: 'name' }, { op: 'flag' }]).names).toEqual(['🇯🇵 Tokyo 01', '🇯🇵 Tokyo 01']);
  });

  it('sort then limit keeps the smallest; limit then sort sorts the first', () => {
    const list = named('c', 'b', 'a');
    expect(run(list, [{ op: 'sort' }, { op: 'limit', count: 1 }]).names).toEqual(['a']);
    expect(run(list, [{ op: 'limit', count: 1 }, { op: 'sort' }]).names).toEqual(['c']);
  });

  it('prefix then flag guesses from the whole new name', () => {
    expect(run(named('01'), [{ op: 'prefix', text: 'Tokyo ' }, { op: 'flag' }]).names).toEqual(['🇯🇵 Tokyo 01']);
    expect(run(named('01'), [{ op: 'flag' }, { op: 'prefix', text: 'Tokyo ' }]).names).toEqual(['Tokyo 01']);
  });

  it('counts in and out per operator, each step starting where the last ended', () => {
    const { steps } = run(named('剩余流量：1 GB', 'JP 01', 'JP 01', 'SG 01'), [
      { op: 'drop_info' },
      { op: 'dedupe', by: 'name' },
      { op: 'include', pattern: 'JP' },
    ]);
    expect(steps).toEqual([
      { index: 0, op: 'drop_info', in: 4, out: 3 },
      { index: 1, op: 'dedupe', in: 3, out: 2 },
      { index: 2, op: 'include', in: 2, out: 1 },
    ]);
  });
});

describe('the common recipes of docs/transforms.md', () => {
  it('keeps only Japan and Singapore, without notices, flagged, renamed, sorted and deduplicated', () => {
    const servers = [
      server('剩余流量：100 GB', { server: 'jp.example.com' }),
      server('套餐到期：2026-01-01', { server: 'jp.example.com' }),
      server('[Provider] JP-02', { server: 'jp2.example.com' }),
      server('[Provider] JP-01', { server: 'jp1.example.com' }),
      server('[Provider] JP-01 backup', { server: 'jp1.example.com' }),
      server('[Provider] SG-01', { server: 'sg1.example.com' }),
      server('[Provider] US-01', { server: 'us1.example.com' }),
    ];
    const { names } = run(servers, [
      { op: 'drop_info' },
      { op: 'include', pattern: '\\b(JP|SG)\\b' },
      { op: 'dedupe' },
      { op: 'rename', pattern: '^\\[Provider\\] JP-0*(\\d+)', replace: 'Tokyo $1' },
      { op: 'rename', pattern: '^\\[Provider\\] SG-0*(\\d+)', replace: 'Singapore $1' },
      { op: 'flag' },
      { op: 'sort' },
    ]);
    expect(names).toEqual(['🇯🇵 Tokyo 1', '🇯🇵 Tokyo 2', '🇸🇬 Singapore 1']);
  });
});

describe('hostile patterns complete', () => {
  const long = 'a'.repeat(250) + '!';
  const patterns: Array<[string, boolean]> = [
    ['(a+)+$', false],
    ['(a+)+!$', true],
    ['(a|a)*b', false],
    ['(a*)*$', true],
    ['(.*a){20}$', false],
    ['^(a|aa)+$', false],
    ['^(\\w+\\s?)*$', false],
    ['(?i)(A+)+(B+)+c', false],
  ];

  it.each(patterns)('include %s', (pattern, kept) => {
    expect(run(named(long), [{ op: 'include', pattern }]).names).toHaveLength(kept ? 1 : 0);
  });

  it('a rename that matches everywhere with a long replacement stays bounded', () => {
    const chain = Array.from({ length: MAX_OPERATORS }, () => ({
      op: 'rename',
      pattern: 'a*',
      replace: 'a'.repeat(256),
    }));
    const { names } = run(named(long, long), chain);
    expect(names.map((name) => name.length)).toEqual([256, 256]);
  });
});

describe('10,000 servers through 32 operators (the chain of bench/transforms.ts)', () => {
  it('gives the same answer as the operators applied by hand', () => {
    expect(BENCH_CHAIN).toHaveLength(MAX_OPERATORS);
    const { names, steps, servers: out } = run(benchServers(10_000), [...BENCH_CHAIN], 10_000);

    // By hand: drop the notices, DE, the repeated endpoints and Singapore; rename, flag, sort, keep 2,500.
    const city: Record<string, string> = { JP: '🇯🇵 Tokyo', HK: '🇭🇰 Hong Kong', US: '🇺🇸 Los Angeles' };
    const expected = Array.from({ length: 10_000 }, (_, i) => i)
      .filter((i) => i % 100 !== 0 && i % 10 !== 1 && REGIONS[i % 5] !== 'DE' && REGIONS[i % 5] !== 'SG')
      .map((i) => `${city[REGIONS[i % 5]!]} ${i}`)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .slice(0, 2_500);
    expect(names).toEqual(expected);
    expect(steps).toHaveLength(32);
    expect(steps[0]).toEqual({ index: 0, op: 'drop_info', in: 10_000, out: 9_900 });
    steps.slice(1).forEach((step, i) => expect(step.in).toBe(steps[i]!.out));
    expect(steps.at(-1)!.out).toBe(2_500);
    expect(out.every((node) => node.uri.endsWith(`#${encodeURIComponent(node.name)}`))).toBe(true);
  });
});
