// The whole schema the service needs: accounts, delegation, subscriptions and sources, upstream cache, abuse controls, statistics.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('user_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('providers')
    .addColumn('provider_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider_name', 'text', (c) => c.notNull().unique())
    .addColumn('provider_url', 'text', (c) => c.notNull())
    .addColumn('owner_user_id', 'bigint', (c) => c.notNull().unique().references('users.user_id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('connections')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('provider_hash', 'text', (c) => c.notNull().references('providers.provider_hash').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('had_subscriptions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('connections_pk', ['user_id', 'provider_hash'])
    .execute();
  await db.schema.createIndex('connections_provider_idx').on('connections').column('provider_hash').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('provider_hash', 'text', (c) => c.references('providers.provider_hash').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('subscriptions_scope_name_uq', ['user_id', 'scope', 'name'])
    .execute();
  await db.schema.createIndex('subscriptions_provider_idx').on('subscriptions').column('provider_hash').execute();

  await db.schema
    .createTable('sources')
    .addColumn('subscription_token', 'text', (c) => c.notNull().references('subscriptions.token').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('ref_token', 'text')
    .addColumn('comment', 'text')
    .addColumn('is_hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_depth', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('order_index', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sources_pk', ['subscription_token', 'id'])
    .execute();
  await db.schema
    .createIndex('sources_order_idx')
    .on('sources')
    .columns(['subscription_token', 'order_index'])
    .execute();
  await db.schema.createIndex('sources_ref_idx').on('sources').column('ref_token').execute();
  await db.schema.createIndex('sources_type_data_idx').on('sources').columns(['source_type', 'data']).execute();

  await db.schema
    .createTable('external_cache')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('content', 'text')
    .addColumn('configs_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fetched_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('external_cache_attempt_idx').on('external_cache').column('last_attempt_at').execute();

  await db.schema
    .createTable('bans')
    .addColumn('ip_address', 'text', (c) => c.primaryKey())
    .addColumn('banned_until', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bans_until_idx').on('bans').column('banned_until').execute();

  await db.schema
    .createTable('whitelist')
    .addColumn('ip_address', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('added_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('request_counts')
    .addColumn('bucket_start', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_counts_pk', ['bucket_start', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'request_counts',
    'whitelist',
    'bans',
    'external_cache',
    'sources',
    'subscriptions',
    'connections',
    'providers',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
