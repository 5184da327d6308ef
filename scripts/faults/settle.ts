// Settling a write that got no answer (a killed instance, a 503, a reset): it may or may not have happened, so the
// subscription is read back and the write kept or dropped; a state that is neither means acknowledged writes are gone.
import { setTimeout as sleep } from 'node:timers/promises';
import { json, type Answer } from './client.js';
import { applyWrite, compare, matches, type Actual, type Ledger, type Write } from './ledger.js';
import { actualOf, type SubscriptionView } from './views.js';

/** The operation name of the reads that settle an unanswered write. */
export const READ_BACK = 'read-back';

/** An unanswered write that a later read showed neither applied nor not applied: acknowledged writes went missing. */
export interface Violation {
  token: string;
  write: Write['kind'];
  lost: number[];
  unexpected: string[];
}

/** What settling needs from the worker that sent the write. */
export interface SettleHost {
  ledger: Ledger;
  violations: Violation[];
  /** A GET as this worker, through either instance. */
  read(path: string): Promise<Answer>;
  remember(view: SubscriptionView): void;
  adopt(token: string): void;
  /** The subscription went astray: still verified at the end, no longer written to. */
  abandon(token: string): void;
}

export type Outcome = 'applied' | 'not applied' | 'inconsistent' | 'unsettled';

const SETTLE_LIMIT_MS = 60_000;

/**
 * Reads the subscription back until an instance answers: the write is recorded (as unacknowledged) when the state
 * shows it, dropped when the state is as before, and anything else is recorded as a violation.
 */
export async function settle(
  host: SettleHost,
  token: string | null,
  write: Write,
  phase: string,
  answer: Answer,
): Promise<Outcome> {
  if (answer.status === 0 && answer.code !== 'ECONNRESET') await sleep(2_000); // the server may still be at it
  const giveUpAt = Date.now() + SETTLE_LIMIT_MS;
  while (Date.now() < giveUpAt) {
    const read = await readBack(host, token, write);
    if (read === undefined) {
      await sleep(500);
      continue;
    }
    const { token: found, actual, view } = read;
    if (view) host.remember(view);
    const before = token ? host.ledger.state(token) : null;
    const key = found ?? token;
    if (key && matches(applyWrite(before, write, 0), actual)) {
      if (!token) host.adopt(key);
      host.ledger.record(key, write, false, phase);
      return 'applied';
    }
    if (matches(before, actual)) return 'not applied';
    const { lost, unexpected } = compare(before, actual);
    host.violations.push({ token: key ?? '(create)', write: write.kind, lost, unexpected });
    if (key) host.abandon(key);
    return 'inconsistent';
  }
  if (token) host.abandon(token);
  return 'unsettled';
}

/** The subscription's state now (a create is found by its unique name), or undefined when no instance answered. */
async function readBack(
  host: SettleHost,
  token: string | null,
  write: Write,
): Promise<{ token: string | null; actual: Actual; view: SubscriptionView | null } | undefined> {
  let target = token;
  if (!target && write.kind === 'create') {
    const listed = await host.read('/api/v1/subs');
    if (!listed.ok) return undefined;
    target = json<Array<{ token: string; name: string }>>(listed).find((s) => s.name === write.name)?.token ?? null;
    if (!target) return { token: null, actual: null, view: null };
  }
  const answer = await host.read(`/api/v1/subs/${target}`);
  if (answer.status === 404) return { token: target, actual: null, view: null };
  if (!answer.ok) return undefined;
  const view = json<SubscriptionView>(answer);
  return { token: target, actual: actualOf(view), view };
}
