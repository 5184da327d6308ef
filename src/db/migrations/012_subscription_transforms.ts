// A subscription's transform chain (docs/transforms.md), stored as the validated operator list in JSON.
import type { Kysely } from 'kysely';

/** Null: no chain, which serves exactly what the subscription served before transforms existed. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('transforms', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('transforms').execute();
}
