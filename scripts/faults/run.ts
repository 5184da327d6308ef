// `npm run faults`: two instances of the built service on a private PostgreSQL and Redis, mixed load, one fault after
// another, then every acknowledged write checked; prints Markdown tables and exits 1 when a write was lost or a
// process died on its own. Loopback only; 2.5-4 minutes (`--quick` or FAULTS_QUICK=1: 1.5-2).
import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../support/private-services.js';
import { call, closeClient, json } from './client.js';
import { faultsOf } from './faults.js';
import { recoveredAfter } from './health.js';
import type { Exit, ServiceInstance } from './instances.js';
import { Ledger } from './ledger.js';
import { LoadWorker, type LoadContext } from './load.js';
import { READ_BACK } from './settle.js';
import { errorsByOperation, phaseTable, stalenessTable, totalsList, type PhaseResult } from './report.js';
import { measureStaleness, type StalenessResult } from './staleness.js';
import { setUp } from './setup.js';
import { verify } from './verify.js';

const QUICK = process.argv.includes('--quick') || process.env['FAULTS_QUICK'] === '1';
const TIMING = QUICK
  ? { baselineMs: 3_000, outageMs: 4_000, upstreamMs: 6_000, settleMs: 3_000, trials: 20, workers: 4 }
  : { baselineMs: 10_000, outageMs: 10_000, upstreamMs: 12_000, settleMs: 6_000, trials: 60, workers: 6 };
const FETCH_TIMEOUT_MS = 5_000;
/** Shorter than FETCH_TIMEOUT_MS, so a request waiting on a hanging upstream outlives the shutdown deadline. */
const SHUTDOWN_TIMEOUT_MS = 4_000;
const THINK_MS = 25;
/** Whatever happens, the run ends (and takes its processes down) by then. */
const RUN_LIMIT_MS = 10 * 60_000;
const READS = new Set(['list', 'get', 'link']);

const runStarted = Date.now();
const progress = (message: string) =>
  process.stderr.write(`[${((Date.now() - runStarted) / 1000).toFixed(1)} s] ${message}\n`);

type PhaseMeta = Pick<PhaseResult, 'name' | 'durationMs' | 'recoveryMs' | 'note' | 'logLines' | 'stackTraces'> & {
  healedAt?: number;
};

const teardown: Array<() => Promise<unknown>> = [];
/** Set once the run is over: an instance that exits from then on is not started again. */
let finishing = false;
async function tearDown(): Promise<void> {
  finishing = true;
  for (const step of teardown.splice(0).reverse()) await step().catch(() => undefined);
  await closeClient();
}

async function main(): Promise<number> {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  const loadAtStart = loadavg()[0] as number;
  const logDir = mkdtempSync(join(tmpdir(), 'subweave-faults-'));
  progress(`private PostgreSQL, Redis, upstream and two instances; logs in ${logDir}`);
  const exits: Array<Exit & { phase: string }> = [];
  let phaseName = 'start';
  const setup = await setUp({
    logDir,
    users: TIMING.workers,
    fetchTimeoutMs: FETCH_TIMEOUT_MS,
    shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
    onTeardown: (step) => teardown.push(step),
    onUnexpectedExit: (exit, instance) => {
      exits.push({ ...exit, phase: phaseName });
      progress(`instance ${exit.instance} exited on its own (code ${exit.code}, signal ${exit.signal})`);
      setTimeout(() => finishing || instance.spawn(), 1_000);
    },
  });
  const { a, b, redis, upstream, probe } = setup;
  const instances = [a, b];
  const run: LoadContext = {
    phase: phaseName,
    instances,
    ledger: new Ledger(),
    upstream,
    samples: [],
    violations: [],
    owners: new Map(),
    unsettled: 0,
    nextFeed: 0,
  };
  const workers = setup.userTokens.map((token, i) => new LoadWorker(run, i + 1, token, THINK_MS));
  for (const worker of workers) worker.start();

  const sum = (count: (i: ServiceInstance) => number) => instances.reduce((total, i) => total + count(i), 0);
  const phases: PhaseMeta[] = [];
  const phase = async (name: string, body: () => Promise<Partial<PhaseMeta>>) => {
    progress(name);
    phaseName = run.phase = name;
    const logLines = sum((i) => i.logLines);
    const stackTraces = sum((i) => i.stackTraces);
    const startedAt = Date.now();
    const outcome = await body();
    phases.push({
      name,
      ...outcome,
      durationMs: Date.now() - startedAt,
      logLines: sum((i) => i.logLines) - logLines,
      stackTraces: sum((i) => i.stackTraces) - stackTraces,
    });
  };

  const broken: string[] = [];
  await phase('baseline (no fault)', async () => (await sleep(TIMING.baselineMs), {}));
  const faults = faultsOf({
    ...setup,
    shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
    outageMs: TIMING.outageMs,
    upstreamMs: TIMING.upstreamMs,
    renderedToken: setup.stalenessTarget.token,
    onBroken: (note) => broken.push(note),
  });
  for (const fault of faults) {
    await phase(fault.name, async () => {
      const note = (await fault.inject()) ?? undefined;
      await sleep(fault.holdMs);
      await fault.heal();
      const healedAt = Date.now();
      const recoveryMs = await recoveredAfter(instances, probe, fault.check, healedAt);
      await sleep(TIMING.settleMs);
      return { recoveryMs, healedAt, ...(note ? { note } : {}) };
    });
  }

  const staleness: Array<{ label: string; result: StalenessResult }> = [];
  const measure = async (label: string) =>
    staleness.push({ label, result: await measureStaleness([a, b], setup.stalenessTarget, TIMING.trials, label) });
  await phase('staleness, Redis up', async () => (await measure('up'), {}));
  await phase('staleness, Redis stopped', async () => {
    await redis.stop();
    const degraded = async (i: ServiceInstance) =>
      json<{ redis?: string }>(await call(i.origin, '/readyz')).redis === 'degraded';
    await waitFor(10_000, async () => (await degraded(a)) && (await degraded(b)));
    await measure('stopped');
    await redis.start();
    const healedAt = Date.now();
    return { healedAt, recoveryMs: await recoveredAfter(instances, probe, { redis: true, upstream: false }, healedAt) };
  });

  for (const worker of workers) await worker.stop();
  phaseName = run.phase = 'verification';
  progress('verifying every write through both instances and in the database');
  const checked = await verify(run.ledger, run.owners, instances, upstream, setup.postgres.url);
  finishing = true;

  const lost = new Set([...checked.lost, ...run.violations.flatMap((v) => v.lost)]);
  const entries = run.ledger.all();
  const rows: PhaseResult[] = phases.map((meta) => {
    const samples = run.samples.filter((s) => s.phase === meta.name);
    const acked = entries.filter((e) => e.phase === meta.name && e.acknowledged);
    const failedAfter = samples.filter(
      (s) => !s.ok && s.op !== READ_BACK && meta.healedAt !== undefined && s.at >= meta.healedAt,
    );
    return {
      ...meta,
      lastErrorMs: failedAfter.length ? Math.max(...failedAfter.map((s) => s.at)) - (meta.healedAt as number) : null,
      requests: samples.map(({ op, code }) => ({ op, code })),
      readMs: samples.filter((s) => s.ok && READS.has(s.op)).map((s) => s.ms),
      writeMs: samples.filter((s) => s.ok && !READS.has(s.op) && s.op !== READ_BACK).map((s) => s.ms),
      unexpectedExits: exits.filter((e) => e.phase === meta.name).length,
      acknowledged: acked.length,
      lost: acked.filter((e) => lost.has(e.id)).length,
    };
  });
  const acknowledged = entries.filter((e) => e.acknowledged);
  const settled = entries.filter((e) => !e.acknowledged);
  const lostAcknowledged = acknowledged.filter((e) => lost.has(e.id)).length;
  const scriptErrors = workers.flatMap((w) => w.scriptErrors);
  const output = [
    `## Faults under load (${QUICK ? 'quick run' : 'full run'}, ${TIMING.workers} load workers)`,
    '',
    `${cpus().length} cores; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] as number).toFixed(1)} at the end.`,
    '',
    phaseTable(rows),
    '',
    `Failed requests by operation, failed/sent (\`${READ_BACK}\`: reads that settle an unanswered write, not counted above):`,
    '',
    errorsByOperation(rows),
    '',
    '## Cross-instance staleness (public link on the other instance right after an acknowledged write)',
    '',
    stalenessTable(staleness),
    '',
    '## Totals',
    '',
    totalsList({
      acknowledged: acknowledged.length,
      lostAcknowledged,
      settledApplied: settled.length,
      lostSettled: settled.filter((e) => lost.has(e.id)).length,
      violations: run.violations.length,
      unsettled: run.unsettled,
      unexpected: checked.unexpected.length,
      linkMismatches: checked.linkMismatches.length,
      readFailures: checked.readFailures,
      unrefreshed: checked.unrefreshed,
      subscriptions: checked.subscriptions,
      unexpectedExits: exits.length,
      seconds: Math.round((Date.now() - runStarted) / 1000),
    }),
  ];
  process.stdout.write(`${output.join('\n')}\n`);
  const problems = [
    lostAcknowledged > 0 && `${lostAcknowledged} acknowledged writes lost`,
    exits.length > 0 && `${exits.length} processes exited on their own`,
    broken.length > 0 && `a fault's check failed: ${broken.join('; ')}`,
    checked.linkMismatches.length > 0 && `links not as expected: ${checked.linkMismatches.slice(0, 5).join(', ')}`,
    run.violations.length > 0 && `inconsistent states: ${JSON.stringify(run.violations.slice(0, 3))}`,
    checked.unexpected.length > 0 && `unexpected sources: ${checked.unexpected.slice(0, 5).join(', ')}`,
    scriptErrors.length > 0 && `the load itself failed: ${scriptErrors.slice(0, 3).join('\n')}`,
  ].filter((p): p is string => typeof p === 'string');
  for (const problem of problems) process.stderr.write(`FAULTS: ${problem}\n`);
  if (problems.length > 0 || process.env['FAULTS_KEEP_LOGS'] === '1') progress(`instance logs kept in ${logDir}`);
  else rmSync(logDir, { recursive: true, force: true });
  return problems.length > 0 ? 1 : 0;
}

const finish = (code: number) => void tearDown().finally(() => process.exit(code));
setTimeout(() => {
  progress(`the run took longer than ${RUN_LIMIT_MS / 60_000} minutes; stopping`);
  finish(2);
}, RUN_LIMIT_MS).unref();
process.once('SIGINT', () => finish(130));
main().then(finish, (error: unknown) => {
  process.stderr.write(`faults: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  finish(2);
});
