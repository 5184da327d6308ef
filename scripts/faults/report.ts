// The fault run's results as Markdown tables: one row per fault, one per staleness measurement, and the totals.
import { READ_BACK } from './settle.js';
import { formatTally, summarize, tally } from './stats.js';
import type { StalenessResult } from './staleness.js';

export interface PhaseResult {
  name: string;
  durationMs: number;
  /** The load's requests in this phase: what each did and its answer code. */
  requests: Array<{ op: string; code: string }>;
  /** Durations of the 2xx answers to reads (lists, subscriptions, public links) and to writes. */
  readMs: number[];
  writeMs: number[];
  /** ms from the end of the fault until both instances answered normally; null: never; undefined: no fault. */
  recoveryMs?: number | null;
  /** ms from the end of the fault until the last load request that failed was sent; null: none failed after it. */
  lastErrorMs?: number | null;
  note?: string;
  logLines: number;
  stackTraces: number;
  unexpectedExits: number;
  acknowledged: number;
  lost: number;
}

export interface Totals {
  acknowledged: number;
  lostAcknowledged: number;
  settledApplied: number;
  lostSettled: number;
  violations: number;
  unsettled: number;
  unexpected: number;
  linkMismatches: number;
  readFailures: number;
  unrefreshed: number;
  subscriptions: number;
  unexpectedExits: number;
  seconds: number;
}

const ms = (value: number) => `${Math.round(value)} ms`;

export function phaseTable(phases: readonly PhaseResult[]): string {
  const rows = phases.map((phase) => {
    const errors = failed(phase)
      .filter((r) => r.op !== READ_BACK)
      .map((r) => r.code);
    const reads = summarize(phase.readMs);
    const writes = summarize(phase.writeMs);
    const recovery =
      (phase.recoveryMs === undefined ? '-' : phase.recoveryMs === null ? 'never' : ms(phase.recoveryMs)) +
      (typeof phase.lastErrorMs === 'number' ? ` (last load error +${ms(phase.lastErrorMs)})` : '');
    return [
      phase.name,
      `${load(phase).length} (${Math.round(load(phase).length / (phase.durationMs / 1000))}/s)`,
      `${errors.length}${errors.length ? `: ${formatTally(tally(errors))}` : ''}`,
      `${ms(reads.p50)} / ${ms(reads.p99)}`,
      `${ms(writes.p50)} / ${ms(writes.p99)}`,
      recovery,
      `${phase.acknowledged} / ${phase.lost}`,
      String(phase.unexpectedExits),
      `${phase.logLines}${phase.stackTraces ? ` (${phase.stackTraces} stacks)` : ''}`,
      phase.note ?? '',
    ];
  });
  return table(
    [
      'fault',
      'requests (rate)',
      'errors seen by the load',
      'reads p50 / p99',
      'writes p50 / p99',
      'recovery',
      'acked writes / lost',
      'unexpected exits',
      'log lines',
      'notes',
    ],
    rows,
  );
}

/** Per phase with errors: each operation with failures, as failed/sent, e.g. "link 3/120, create 2/10". */
export function errorsByOperation(phases: readonly PhaseResult[]): string {
  return phases
    .filter((phase) => failed(phase).length > 0)
    .map((phase) => {
      const sent = new Map(tally(phase.requests.map((r) => r.op)));
      const counts = tally(failed(phase).map((r) => r.op)).map(([op, count]) => `${op} ${count}/${sent.get(op)}`);
      return `- ${phase.name}: ${counts.join(', ')}`;
    })
    .join('\n');
}

/** The load's own requests, without the read-backs. */
const load = (phase: PhaseResult) => phase.requests.filter((r) => r.op !== READ_BACK);
const failed = (phase: PhaseResult) => phase.requests.filter((r) => !/^2\d\d$/.test(r.code));

export function stalenessTable(results: ReadonlyArray<{ label: string; result: StalenessResult }>): string {
  const rows = results.map(({ label, result }) => {
    const window = summarize(result.windows);
    return [
      label,
      String(result.trials),
      `${result.staleFirstReads} (${Math.round((100 * result.staleFirstReads) / Math.max(1, result.trials))}%)`,
      `${ms(window.p50)} / ${ms(window.p95)} / ${ms(window.max)}`,
      String(result.failed),
    ];
  });
  return table(
    ['Redis', 'writes', 'stale first reads on the other instance', 'window p50 / p95 / max', 'failed'],
    rows,
  );
}

export function totalsList(totals: Totals): string {
  return [
    `- acknowledged writes: ${totals.acknowledged}; lost: **${totals.lostAcknowledged}**`,
    `- unanswered writes later found applied: ${totals.settledApplied} (lost since: ${totals.lostSettled}); not settled: ${totals.unsettled}; inconsistent when settled: ${totals.violations}`,
    `- subscriptions checked through both instances (API and public link) and in the database: ${totals.subscriptions}; links not as expected: ${totals.linkMismatches}; unexpected sources: ${totals.unexpected}; failed reads: ${totals.readFailures}; feeds that would not refresh before the check: ${totals.unrefreshed}`,
    `- processes that exited on their own: ${totals.unexpectedExits}`,
    `- run time: ${totals.seconds} s`,
  ].join('\n');
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
