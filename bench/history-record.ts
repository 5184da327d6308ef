// Measures what recording one fetch in the request history costs the request path (src/modules/history), in CPU time per call.
import { RequestHistory } from '../src/modules/history/request-history.js';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 2_000_000);
const TOKENS = 1_000;
const tokens = Array.from({ length: TOKENS }, (_, i) => `token-${i}`.padEnd(43, 'x'));
const agent = 'mihomo/1.19.0 (Linux; x86_64)';

function run(history: RequestHistory, calls: number): number {
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    history.record({
      token: tokens[i % TOKENS]!,
      format: 'mihomo',
      rule: 'default',
      status: 200,
      userAgent: agent,
      ip: '203.0.113.7',
      servers: 42,
    });
    // A flush every 20,000 calls takes the buffer away, as the 5 s timer does; the rows are not written.
    if (i % 20_000 === 19_999) void history.flush();
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / calls;
}

const history = new RequestHistory({ write: async () => undefined, flushIntervalMs: 3_600_000 });
run(history, CALLS / 10);
const nanoseconds = run(history, CALLS);
process.stdout.write(`${JSON.stringify({ calls: CALLS, ns_per_record: Math.round(nanoseconds) })}\n`);
