// Database access for subscription rows; callers pass the owner so queries always filter by it.
import { chunks } from '../../db/chunks.js';
import type { Dialect } from '../../db/database.js';
import { lockRows, type Executor } from '../../db/executor.js';
import type { NewSubscription, SubscriptionRow } from '../../db/types.js';

export interface SubscriptionWithProvider extends SubscriptionRow {
  provider_name: string | null;
}

function selectWithProvider(db: Executor) {
  return db
    .selectFrom('subscriptions')
    .leftJoin('providers', 'providers.provider_hash', 'subscriptions.provider_hash')
    .selectAll('subscriptions')
    .select('providers.provider_name');
}

export function findSubscription(db: Executor, token: string): Promise<SubscriptionWithProvider | undefined> {
  return selectWithProvider(db).where('subscriptions.token', '=', token).executeTakeFirst();
}

/** `scope` undefined lists every subscription of the user; a string lists one scope ('' = the user's own). */
export function listSubscriptions(db: Executor, userId: number, scope?: string): Promise<SubscriptionWithProvider[]> {
  let query = selectWithProvider(db).where('subscriptions.user_id', '=', userId);
  if (scope !== undefined) query = query.where('subscriptions.scope', '=', scope);
  return query.orderBy('subscriptions.created_at').orderBy('subscriptions.token').execute();
}

export async function countInScope(db: Executor, userId: number, scope: string): Promise<number> {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Creation time for a new subscription of `userId`: now, or 1 ms after the user's newest one when the clock has
 * not passed it. Call while holding the user's row lock so list order (created_at) equals creation order.
 */
export async function nextCreationTime(db: Executor, userId: number): Promise<string> {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.max<string | null>('created_at').as('latest'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const now = Date.now();
  const latest = row?.latest ? Date.parse(row.latest) : Number.NaN;
  return new Date(Number.isNaN(latest) || now > latest ? now : latest + 1).toISOString();
}

/** Whether the user already has a subscription called `name` in `scope`. */
export async function nameTaken(db: Executor, userId: number, scope: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('subscriptions')
    .select('token')
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

/** Locks the subscription's row until the transaction ends (PostgreSQL): serialises writes to its source list. */
export async function lockSubscription(db: Executor, dialect: Dialect, token: string): Promise<void> {
  await lockRows(db.selectFrom('subscriptions').select('token').where('token', '=', token), dialect).execute();
}

/** Row locks on several subscriptions (PostgreSQL), in token order so two writers never wait on each other in a cycle. */
export async function lockSubscriptions(db: Executor, dialect: Dialect, tokens: string[]): Promise<void> {
  for (const list of chunks([...tokens].sort())) {
    await lockRows(
      db.selectFrom('subscriptions').select('token').where('token', 'in', list).orderBy('token'),
      dialect,
    ).execute();
  }
}

export async function insertSubscription(db: Executor, row: NewSubscription): Promise<void> {
  await db.insertInto('subscriptions').values(row).execute();
}

export async function updateSubscription(
  db: Executor,
  token: string,
  changes: Partial<Omit<SubscriptionRow, 'token' | 'user_id' | 'provider_hash' | 'scope' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('subscriptions').set(changes).where('token', '=', token).execute();
}

export async function touchSubscription(db: Executor, token: string, now: string): Promise<void> {
  await db.updateTable('subscriptions').set({ updated_at: now }).where('token', '=', token).execute();
}

export async function touchSubscriptions(db: Executor, tokens: string[], now: string): Promise<void> {
  for (const list of chunks(tokens)) {
    await db.updateTable('subscriptions').set({ updated_at: now }).where('token', 'in', list).execute();
  }
}

/** Gives the subscription row a new token; its sources must have been moved out first (they reference the token). */
export async function changeToken(db: Executor, from: string, to: string, now: string): Promise<void> {
  await db.updateTable('subscriptions').set({ token: to, updated_at: now }).where('token', '=', from).execute();
}

export async function deleteSubscription(db: Executor, token: string): Promise<void> {
  await db.deleteFrom('subscriptions').where('token', '=', token).execute();
}

/** Tokens among `tokens` that exist. */
export async function existingTokens(db: Executor, tokens: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const list of chunks(tokens)) {
    const rows = await db.selectFrom('subscriptions').select('token').where('token', 'in', list).execute();
    for (const row of rows) found.add(row.token);
  }
  return found;
}

/**
 * Tokens of every subscription that disappears with the user: their own (any scope) and those managed by a
 * provider they own, since that provider is deleted with them.
 */
export async function tokensGoneWithUser(db: Executor, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('token')
    .where((eb) =>
      eb.or([
        eb('user_id', '=', userId),
        eb(
          'provider_hash',
          'in',
          eb.selectFrom('providers').select('provider_hash').where('owner_user_id', '=', userId),
        ),
      ]),
    )
    .execute();
  return rows.map((r) => r.token);
}

/** Tokens of the subscriptions the provider manages (they go with it: the foreign key cascades). */
export async function tokensManagedBy(db: Executor, providerHash: string): Promise<string[]> {
  const rows = await db.selectFrom('subscriptions').select('token').where('provider_hash', '=', providerHash).execute();
  return rows.map((r) => r.token);
}
