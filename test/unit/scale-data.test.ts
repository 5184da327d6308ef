// Checks the scale benchmark's generated data: valid sources in the service's own form, exact totals, bounded nesting.
import { describe, expect, it } from 'vitest';
import { classifySource, isConfigLine } from '../../src/modules/sources/classify.js';
import {
  FULL_SOURCES,
  FULL_USERS,
  randomGenerator,
  referencedSubscriptions,
  sampleDistinct,
  sizeAt,
  sourceCount,
  subscriptionSources,
  subscriptionToken,
  tier,
  upstreamLines,
  userToken,
} from '../../bench/scale-data.js';

const BASE = 'http://bench.test';

describe('scale benchmark data', () => {
  it('classifies every generated source as the service would store it', () => {
    for (const sub of [0, 1, 2, 3, 4, 5, 9, 99, 999, 1234, 29_999]) {
      const sources = subscriptionSources(sub);
      expect(sources).toHaveLength(sourceCount(sub));
      expect(new Set(sources.map((s) => s.id)).size).toBe(sources.length);
      for (const source of sources) {
        const input =
          source.type === 'internal_token'
            ? `${BASE}/sub/${source.data}`
            : source.type === 'config' && !source.data.startsWith('vmess://')
              ? `${source.data}#${encodeURIComponent(source.comment ?? '')}`
              : source.data;
        const result = classifySource(input, BASE);
        if (!result.ok) throw new Error(`${input}: ${result.reason}`);
        expect(result.source.type).toBe(source.type);
        expect(result.source.identity).toBe(source.data);
        if (source.type === 'config') expect(result.source.comment).toBe(source.comment);
      }
    }
  });

  it('makes upstream lines that are config lines, and tokens shaped like issued ones', () => {
    for (const line of upstreamLines(10)) expect(isConfigLine(line)).toBe(true);
    expect(upstreamLines(3)).toHaveLength(80);
    expect(subscriptionToken(7)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(userToken(7)).not.toBe(subscriptionToken(7));
  });

  it('holds exactly 100 sources per user, so the full set is 1,000,000', () => {
    const { subscriptions } = sizeAt(1);
    let total = 0;
    for (let sub = 0; sub < subscriptions; sub++) total += sourceCount(sub);
    expect(total).toBe(FULL_SOURCES);
    expect(sizeAt(0.01)).toEqual({ users: FULL_USERS / 100, subscriptions: 300 });
    for (let sub = 0; sub < 600; sub++) expect(sourceCount(sub)).toBeGreaterThanOrEqual(8);
  });

  it('references only earlier subscriptions, one tier down, so nesting stops at depth 3', () => {
    const depth = (sub: number): number => Math.max(0, ...referencedSubscriptions(sub).map((ref) => 1 + depth(ref)));
    expect(depth(999)).toBe(3);
    expect(depth(99)).toBe(2);
    expect(depth(9)).toBe(1);
    for (let sub = 0; sub < 3000; sub++) {
      for (const ref of referencedSubscriptions(sub)) {
        expect(ref).toBeGreaterThanOrEqual(0);
        expect(ref).toBeLessThan(sub);
        expect(tier(ref)).toBe(tier(sub) - 1);
      }
    }
  });

  it('samples distinct indexes, the same ones for the same seed', () => {
    const sample = sampleDistinct(1000, 300, randomGenerator(1));
    expect(new Set(sample).size).toBe(300);
    expect(sample.every((n) => n >= 0 && n < 1000)).toBe(true);
    expect(sampleDistinct(1000, 300, randomGenerator(1))).toEqual(sample);
    expect(sampleDistinct(5, 10, randomGenerator(2)).sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
