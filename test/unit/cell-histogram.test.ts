// The request histogram's cells: cumulative buckets, sum and count as Prometheus reads them, and a reset.
import { expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { CellHistogram } from '../../src/modules/metrics/cell-histogram.js';

function histogram() {
  const registry = new Registry();
  const latency = new CellHistogram({ name: 't_seconds', help: 'test', buckets: [0.1, 1], registry });
  return { registry, latency };
}

it('exposes cumulative buckets, +Inf, sum and count per cell, bounds inclusive', async () => {
  const { registry, latency } = histogram();
  const cell = latency.cell({ route: '/sub/:token', status: '200' });
  latency.cell({ route: 'unmatched', status: '404' }).observe(5);
  for (const value of [0.05, 0.1, 0.5, 2]) cell.observe(value);
  const text = await registry.metrics();
  expect(text).toContain('# TYPE t_seconds histogram');
  const lines = text.split('\n').filter((line) => line.includes('route="/sub/:token"'));
  expect(lines).toEqual([
    't_seconds_bucket{route="/sub/:token",status="200",le="0.1"} 2',
    't_seconds_bucket{route="/sub/:token",status="200",le="1"} 3',
    't_seconds_bucket{route="/sub/:token",status="200",le="+Inf"} 4',
    't_seconds_sum{route="/sub/:token",status="200"} 2.65',
    't_seconds_count{route="/sub/:token",status="200"} 4',
  ]);
  expect(text).toContain('t_seconds_bucket{route="unmatched",status="404",le="1"} 0');
  expect(text).toContain('t_seconds_count{route="unmatched",status="404"} 1');
});

it('zeroes every cell on a registry reset and keeps counting afterwards', async () => {
  const { registry, latency } = histogram();
  const cell = latency.cell({ route: '/x' });
  cell.observe(0.5);
  registry.resetMetrics();
  expect(await registry.metrics()).toContain('t_seconds_count{route="/x"} 0');
  cell.observe(0.5);
  expect(await registry.metrics()).toContain('t_seconds_count{route="/x"} 1');
});
