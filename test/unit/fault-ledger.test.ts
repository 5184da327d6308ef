// The pure parts of `npm run faults`: the write ledger and its comparison with states read back, and the statistics.
import { describe, expect, it } from 'vitest';
import { compare, expectedLink, Ledger, matches, type Actual, type Expected } from '../../scripts/faults/ledger.js';
import { formatTally, summarize, tally } from '../../scripts/faults/stats.js';
import { median, percentile } from '../../scripts/support/stats.js';

const a = 'trojan://pw@a.example.com:443';
const b = 'trojan://pw@b.example.com:443';
const c = 'trojan://pw@c.example.com:443';
const feed = 'http://127.0.0.1:9/feed/1';

/** create [a, b] (1), add [c, a] (2), comment b (3), rename (4), remove a (5): expected sources b, c. */
function sample(): Ledger {
  const ledger = new Ledger();
  ledger.record(
    't',
    {
      kind: 'create',
      name: 'one',
      sources: [
        { data: a, comment: null, external: false },
        { data: b, comment: 'B', external: false },
      ],
    },
    true,
    'baseline',
  );
  const sources = [
    { data: c, comment: null, external: false },
    { data: a, comment: 'ignored', external: false },
  ];
  ledger.record('t', { kind: 'add', sources }, true, 'kill');
  ledger.record('t', { kind: 'comment', data: b, comment: 'Bee' }, true, 'kill');
  ledger.record('t', { kind: 'rename', name: 'two' }, false, 'pg');
  ledger.record('t', { kind: 'remove', data: [a] }, true, 'pg');
  return ledger;
}

const faithful = (): NonNullable<Actual> => ({
  name: 'two',
  sources: [
    { data: b, comment: 'Bee' },
    { data: c, comment: null },
  ],
});

describe('the fault ledger', () => {
  it('adds writes up: an add skips what is there, a remove takes a source out', () => {
    const state = sample().state('t') as Expected;
    expect(state.exists).toBe(true);
    expect(state.name).toBe('two');
    expect(state.sources.map((s) => [s.data, s.comment])).toEqual([
      [b, 'Bee'],
      [c, null],
    ]);
    expect(matches(state, faithful())).toBe(true);
  });

  it('names the write whose effect a state read back does not show', () => {
    const state = sample().state('t') as Expected;
    const actual = faithful();
    expect(compare(state, { ...actual, sources: [actual.sources[0] as never] }).lost).toEqual([2]);
    expect(
      compare(state, { ...actual, sources: [{ data: b, comment: 'B' }, actual.sources[1] as never] }).lost,
    ).toEqual([3]);
    expect(compare(state, { ...actual, name: 'one' }).lost).toEqual([4]);
    expect(compare(state, { ...actual, sources: [...actual.sources, { data: a, comment: null }] }).lost).toEqual([5]);
    expect(compare(state, { ...actual, sources: [...actual.sources].reverse() }).lost).toEqual([5]);
    expect(compare(state, null).lost).toEqual([1, 2, 3, 4, 5]);
  });

  it('reports sources nobody wrote, and a deleted subscription that is still there', () => {
    const ledger = sample();
    const extra = {
      ...faithful(),
      sources: [...faithful().sources, { data: 'trojan://pw@x.example:1', comment: null }],
    };
    expect(compare(ledger.state('t'), extra)).toEqual({ lost: [], unexpected: ['trojan://pw@x.example:1'] });
    const deleted = ledger.record('t', { kind: 'delete' }, true, 'term');
    expect(matches(ledger.state('t'), null)).toBe(true);
    expect(compare(ledger.state('t'), faithful()).lost).toEqual([deleted.id]);
    expect(compare(null, faithful()).unexpected).toHaveLength(1);
  });

  it('counts only acknowledged entries as acknowledged, and refuses writes to what does not exist', () => {
    const ledger = sample();
    expect(ledger.all().filter((e) => e.acknowledged)).toHaveLength(4);
    expect(ledger.entry(4).write).toEqual({ kind: 'rename', name: 'two' });
    expect(() => ledger.record('u', { kind: 'rename', name: 'x' }, true, 'p')).toThrow(/does not exist/);
  });

  it('predicts the public link: comments or hosts, upstream lines in place, repeated URIs once', () => {
    const ledger = new Ledger();
    ledger.record(
      'l',
      {
        kind: 'create',
        name: 'link',
        sources: [
          { data: a, comment: 'Frankfurt 1', external: false },
          { data: feed, comment: null, external: true },
          { data: b, comment: null, external: false },
        ],
      },
      true,
      'p',
    );
    const lines = (url: string) => (url === feed ? [`${b}#upstream`, `${c}#up`] : []);
    expect(expectedLink(ledger.state('l') as Expected, lines)).toBe(
      [`${a}#Frankfurt%201`, `${b}#upstream`, `${c}#up`].join('\n'),
    );
  });
});

describe('fault statistics', () => {
  it('takes nearest-rank percentiles of unsorted values', () => {
    const values = [50, 10, 40, 20, 30, 60, 70, 80, 90, 100];
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(100);
    expect(percentile(values, 10)).toBe(10);
    expect(percentile([], 99)).toBe(0);
    // The median is the lower of the middle two for an even count, the middle for an odd one.
    expect(median(values)).toBe(50);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([])).toBe(0);
    expect(summarize(values)).toEqual({ count: 10, p50: 50, p95: 100, p99: 100, max: 100 });
  });

  it('tallies labels, most frequent first', () => {
    const counts = tally(['ECONNREFUSED', '503 database_unavailable', 'ECONNREFUSED', 'ECONNRESET']);
    expect(counts).toEqual([
      ['ECONNREFUSED', 2],
      ['503 database_unavailable', 1],
      ['ECONNRESET', 1],
    ]);
    expect(formatTally(counts)).toBe('ECONNREFUSED ×2, 503 database_unavailable ×1, ECONNRESET ×1');
    expect(formatTally([])).toBe('none');
  });
});
