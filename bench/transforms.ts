// Times 10,000 servers through a 32-operator transform chain (first run in a fresh process, then the median) and its memory.
import { median } from '../scripts/support/stats.js';
import { applyTransforms } from '../src/modules/transforms/apply.js';
import { guessCountry } from '../src/modules/transforms/flag.js';
import { compileTransforms } from '../src/modules/transforms/validate.js';
import { BENCH_CHAIN, benchServers } from './transforms-data.js';

const SERVERS = Number(process.env['BENCH_SERVERS'] ?? 10_000);
const RUNS = 15;
const gc = (globalThis as { gc?: () => void }).gc;

const servers = benchServers(SERVERS);

function timed(run: () => unknown): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const tables = timed(() => guessCountry(''));
const compile = timed(() => compileTransforms(BENCH_CHAIN));
const chain = compileTransforms(BENCH_CHAIN);

gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let kept = 0;
const first = timed(() => (kept = applyTransforms(servers, chain, SERVERS).servers.length));
const heapAfterFirst = process.memoryUsage().heapUsed;
const rest = Array.from({ length: RUNS }, () => timed(() => applyTransforms(servers, chain, SERVERS)));
gc?.();
const retained = applyTransforms(servers, chain, SERVERS);
gc?.();
const heapRetained = process.memoryUsage().heapUsed - heapBefore;

const ms = (value: number) => value.toFixed(1);
console.log(`${SERVERS} servers, ${BENCH_CHAIN.length} operators, ${kept} servers out; ms (wall / cpu)`);
console.log(`country tables (first flag) ${ms(tables.wall)} / ${ms(tables.cpu)}`);
console.log(`compile the chain       ${ms(compile.wall)} / ${ms(compile.cpu)}`);
console.log(`first run (cold code)   ${ms(first.wall)} / ${ms(first.cpu)}`);
console.log(
  `median of ${RUNS}            ${ms(median(rest.map((r) => r.wall)))} / ${ms(median(rest.map((r) => r.cpu)))}`,
);
console.log(
  `heap: +${((heapAfterFirst - heapBefore) / 1e6).toFixed(1)} MB during the first run (no GC), ` +
    `${(heapRetained / 1e6).toFixed(1)} MB held by one result (${retained.servers.length} servers)` +
    `${gc ? '' : ' (run with --expose-gc for a settled figure)'}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);

// Each kind of operator alone over all the servers, to show where a chain's time goes.
const single: Array<[string, unknown]> = [
  ['include', { op: 'include', pattern: '(?i)\\b(jp|sg)\\b' }],
  ['rename', { op: 'rename', pattern: '^\\[Provider\\] ([A-Z]+)-0*(\\d+)$', replace: '$1 $2' }],
  ['prefix', { op: 'prefix', text: 'A ' }],
  ['flag', { op: 'flag' }],
  ['drop_info', { op: 'drop_info' }],
  ['sort', { op: 'sort' }],
  ['dedupe', { op: 'dedupe' }],
];
for (const [name, operator] of single) {
  const one = compileTransforms([operator]);
  applyTransforms(servers, one, SERVERS);
  const runs = Array.from({ length: 7 }, () => timed(() => applyTransforms(servers, one, SERVERS)));
  console.log(
    `${name.padEnd(10)} alone: median ${ms(median(runs.map((r) => r.wall)))} / ${ms(median(runs.map((r) => r.cpu)))}`,
  );
}
