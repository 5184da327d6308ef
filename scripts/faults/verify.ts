// After the faults: every subscription the ledger knows, read back through both instances (API and public link) and
// straight from the database, compared with what its recorded writes should have left.
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from '../../src/db/database.js';
import { call, json } from './client.js';
import type { ServiceInstance } from './instances.js';
import { compare, expectedLink, type Actual, type Ledger } from './ledger.js';
import { actualOf } from './views.js';
import type { FaultUpstream } from './upstream.js';

export interface Verification {
  subscriptions: number;
  /** Ids of writes (acknowledged or settled) whose effect some read did not show. */
  lost: Set<number>;
  unexpected: string[];
  /** Public links that did not serve what the writes add up to: "instance token". */
  linkMismatches: string[];
  /** Reads that got no usable answer. */
  readFailures: number;
  /** External feeds that would not refresh before the check (their links cannot be predicted). */
  unrefreshed: number;
}

/** The change log reaches every instance within a second; this is the wait after the last write before reading. */
const CONVERGE_MS = 1_500;

export async function verify(
  ledger: Ledger,
  owners: Map<string, string>,
  instances: ServiceInstance[],
  upstream: FaultUpstream,
  databaseUrl: string,
): Promise<Verification> {
  const result: Verification = {
    subscriptions: ledger.tokens().length,
    lost: new Set(),
    unexpected: [],
    linkMismatches: [],
    readFailures: 0,
    unrefreshed: 0,
  };
  const [first] = instances as [ServiceInstance];
  // External content fetched during a hang or flood is missing or old; fetch it all once more with a healthy upstream.
  for (const token of ledger.tokens()) {
    const expected = ledger.state(token);
    if (!expected?.exists || !expected.sources.some((s) => s.external)) continue;
    let done = false;
    for (let attempt = 0; attempt < 5 && !done; attempt++) {
      const answer = await call(first.origin, `/api/v1/subs/${token}/refresh`, {
        method: 'POST',
        token: owners.get(token),
      });
      done = answer.ok && json<{ failed: number }>(answer).failed === 0;
      if (!done) await sleep(500);
    }
    if (!done) result.unrefreshed += 1;
  }
  await sleep(CONVERGE_MS);

  const note = (token: string, actual: Actual) => {
    const { lost, unexpected } = compare(ledger.state(token), actual);
    for (const id of lost) result.lost.add(id);
    result.unexpected.push(...unexpected.map((data) => `${token}: ${data}`));
  };
  for (const token of ledger.tokens()) {
    const expected = ledger.state(token);
    for (const instance of instances) {
      const read = await call(instance.origin, `/api/v1/subs/${token}`, { token: owners.get(token) });
      if (read.ok) note(token, actualOf(json(read)));
      else if (read.status === 404) note(token, null);
      else result.readFailures += 1;
      const link = await call(instance.origin, `/sub/${token}?format=plain`);
      const served = expected?.exists
        ? link.status === 200 && link.body === expectedLink(expected, upstream.linesOf)
        : link.status === 404;
      if (!served) result.linkMismatches.push(`${instance.name} ${token}`);
    }
  }
  for (const [token, actual] of await fromDatabase(databaseUrl, ledger.tokens())) note(token, actual);
  return result;
}

/** The subscriptions' names and sources as the database holds them (null for a token it does not have). */
async function fromDatabase(url: string, tokens: string[]): Promise<Map<string, Actual>> {
  const database = createDatabase(url, { poolSize: 1 });
  try {
    const states = new Map<string, Actual>(tokens.map((token) => [token, null]));
    const subscriptions = await database.db
      .selectFrom('subscriptions')
      .select(['token', 'name'])
      .where('token', 'in', tokens)
      .execute();
    for (const row of subscriptions) states.set(row.token, { name: row.name, sources: [] });
    const sources = await database.db
      .selectFrom('sources')
      .select(['subscription_token', 'data', 'comment'])
      .where('subscription_token', 'in', tokens)
      .orderBy('subscription_token')
      .orderBy('order_index')
      .execute();
    for (const row of sources)
      states.get(row.subscription_token)?.sources.push({ data: row.data, comment: row.comment });
    return states;
  } finally {
    await database.close();
  }
}
