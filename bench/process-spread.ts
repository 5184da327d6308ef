// Measures the spread of the warm link between service processes of one build: the CPU each spends per answered request, and with perf installed the two V8 costs that make a process slow for its whole life.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { startServiceProcess } from './service-process.js';
import { cpuSeconds, seedLink } from './link-seed.js';
import { median } from '../scripts/support/stats.js';
import { wrk } from './wrk.js';

const PROCESSES = Number(process.env['BENCH_PROCESSES'] ?? 8);
const SECONDS = 3;
const WARM_UP_SECONDS = 1;
const CONNECTIONS = 50;
const LOG_LEVEL = process.env['BENCH_LOG_LEVEL'] ?? 'info';
/** Extra node options for the service, after those of `npm start`. */
const NODE_ARGS = (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
const run = promisify(execFile);

/** The V8 functions whose share of a process's samples tells which slow mode it is in (docs/benchmarks.md). */
const MARKERS = {
  slow_literal_share: 'v8::internal::Runtime_DefineKeyedOwnPropertyInLiteral',
  collection_share: 'v8::internal::Heap::CollectGarbage',
  /** Property reads that miss V8's caches: every header read did while each request's headers had a shape of its own. */
  load_miss_share: 'v8::internal::Runtime_LoadIC_Miss',
};

async function perfAvailable(): Promise<boolean> {
  return run('perf', ['--version']).then(
    () => true,
    () => false,
  );
}

/** Samples `pid` for `seconds` with perf and returns each marker's share of the samples, callers included. */
async function sampleShares(pid: number, seconds: number, file: string): Promise<Record<string, number>> {
  const recorder = spawn(
    'perf',
    ['record', '-F', '999', '-g', '-o', file, '-p', String(pid), '--', 'sleep', String(seconds)],
    {
      stdio: 'ignore',
    },
  );
  await new Promise((resolve) => recorder.once('exit', resolve));
  const { stdout } = await run('perf', ['report', '-i', file, '--children', '--sort', 'sym', '--stdio', '-g', 'none'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const shares: Record<string, number> = {};
  for (const [name, symbol] of Object.entries(MARKERS)) {
    const line = stdout.split('\n').find((row) => row.trimEnd().endsWith(`] ${symbol}`));
    shares[name] = line ? Number(/([\d.]+)%/.exec(line)?.[1] ?? 0) : 0;
  }
  return shares;
}

async function main(): Promise<void> {
  const link = await seedLink(LOG_LEVEL);
  const sampling = await perfAvailable();
  const processes = [];
  try {
    for (let i = 0; i < PROCESSES; i++) {
      const service = await startServiceProcess(link.env, { nodeArgs: NODE_ARGS });
      try {
        const url = `${service.base}${link.path}`;
        await wrk(url, { connections: CONNECTIONS, seconds: WARM_UP_SECONDS });
        const before = cpuSeconds(service.pid);
        const [result, shares] = await Promise.all([
          wrk(url, { connections: CONNECTIONS, seconds: SECONDS }),
          sampling ? sampleShares(service.pid, SECONDS - 0.5, `${link.dir}/perf.data`) : Promise.resolve({}),
        ]);
        const cpu = cpuSeconds(service.pid) - before;
        const micros = (cpu * 1e6) / (result.requests_per_second * SECONDS);
        processes.push({
          requests_per_second: result.requests_per_second,
          cpu_us_per_request: Number(micros.toFixed(1)),
          p99_ms: result.p99_ms,
          ...shares,
        });
      } finally {
        await service.stop();
      }
    }
  } finally {
    await link.close();
  }
  console.log(
    JSON.stringify(
      {
        log_level: LOG_LEVEL,
        sampled_with_perf: sampling,
        processes,
        median_cpu_us_per_request: median(processes.map((p) => p.cpu_us_per_request)),
      },
      null,
      2,
    ),
  );
}

await main();
