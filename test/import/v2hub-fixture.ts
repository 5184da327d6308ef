// A v2hub database as its migrations 0000-0004 leave it (tables, keys, value formats), with a row for every case the importer handles.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';

/** The v2hub schema as its migrations 0000-0004 leave it. */
const SCHEMA = `
create type providerauthorizationstatus as enum ('PENDING', 'APPROVED', 'REVOKED');
create table users (
  user_hash varchar(36) primary key, user_id bigint not null unique, api_token varchar(43) not null unique,
  is_active boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table providers (
  provider_hash varchar(36) primary key,
  owner_hash varchar(36) not null unique references users(user_hash) on delete cascade,
  provider_name varchar(16) not null unique, api_token varchar(43) not null unique, provider_url varchar(255),
  is_active boolean not null default true,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table provider_authorizations (
  provider_hash varchar(36) not null references providers(provider_hash) on delete cascade,
  user_hash varchar(36) not null references users(user_hash) on delete cascade,
  status providerauthorizationstatus not null,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  primary key (provider_hash, user_hash));
create table subscriptions (
  token varchar(43) primary key, name varchar(64) not null,
  user_hash varchar(36) not null references users(user_hash) on delete cascade,
  provider_hash varchar(36) references providers(provider_hash) on delete cascade, description varchar(64),
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create unique index subscriptions_own_name on subscriptions (user_hash, name) where provider_hash is null;
create unique index subscriptions_provider_name on subscriptions (user_hash, provider_hash, name)
  where provider_hash is not null;
create table proxy_configs (
  config_hash varchar(32) primary key, config_data text not null, protocol varchar(16) not null,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
create table sources (
  subscription_token varchar(43) not null references subscriptions(token) on delete cascade,
  id varchar(32) not null, source_type varchar not null,
  config_hash varchar(32) references proxy_configs(config_hash) on delete set null,
  internal_token varchar(43), external_url varchar(255), is_hidden boolean not null default false,
  max_depth integer not null default 3, order_index integer not null default 0,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  primary key (subscription_token, id));
create table config_comments (
  id serial primary key,
  subscription_token varchar(43) not null references subscriptions(token) on delete cascade,
  config_hash varchar(32) not null references proxy_configs(config_hash) on delete cascade,
  comment varchar(255) not null,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
  unique (subscription_token, config_hash));
create table external_cache (
  url_hash varchar(32) primary key, url varchar(255) not null, raw_content text, fetched_at timestamptz,
  last_error text, error_count integer not null default 0,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now());
`;

/** v2hub's DOMAIN setting in this fixture: its placeholder comment. */
export const V2HUB_DOMAIN = 'v2hub.example.com';

/** v2hub keys are 32 hex characters; the importer only joins on them. */
function hex32(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

const token43 = (): string => randomBytes(32).toString('base64url');
/** What v2hub up to 1.1.1 issued: 16 random bytes, base64url, 22 characters. */
const token22 = (): string => randomBytes(16).toString('base64url');

export const CONFIGS = {
  frankfurt: 'vless://5f3c1a2b-1111-4222-8333-944455556666@fra.example.com:443?security=tls&type=ws',
  paris: 'trojan://secret@par.example.org:443?sni=par.example.org',
  tokyo: 'ss://Y2hhY2hhMjAtaWV0Zi1wb2x5MTMwNTpwdw==@tyo.example.net:8388',
  hidden: 'hysteria2://pw@hid.example.com:443?sni=hid.example.com',
  managed: 'tuic://1b2c3d4e-1111-4222-8333-944455556666:pw@bot.example.com:443?congestion_control=bbr',
  broken: 'vless://not-a-uuid@',
} as const;

/** Lines of the upstream v2hub last fetched successfully (its body was base64). */
export const UPSTREAM_LINES = [
  'vless://0a0b0c0d-1111-4222-8333-944455556666@up1.example.com:443?security=tls#Upstream%201',
  'trojan://pw@up2.example.com:443#Upstream 2',
];

export interface V2hubFixture {
  url: string;
  users: {
    short: { userId: number; token: string };
    long: { userId: number; token: string };
    inactive: { userId: number; token: string };
  };
  providers: { bot: { name: string; token: string }; panel: { name: string; token: string } };
  subs: { home: string; work: string; feed: string; managed: string; orphaned: string; stray: string; panel: string };
  feedUrl: string;
  unfetchedUrl: string;
  deletedToken: string;
  /** Adds one more user after the fact (a row v2hub gained since the last import). */
  addUser(userId: number): Promise<void>;
  drop(): Promise<void>;
}

/** An empty v2hub schema on `baseUrl`'s server: `url` selects it through search_path, `q` writes into it. */
export interface V2hubSchema {
  url: string;
  q(text: string, values?: unknown[]): Promise<unknown>;
  drop(): Promise<void>;
}

export async function createV2hubSchema(baseUrl: string): Promise<V2hubSchema> {
  const schema = `v2hub_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: baseUrl });
  client.on('error', () => undefined);
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.query(`set search_path = ${schema}`);
  await client.query(SCHEMA);
  const options = encodeURIComponent(`-c search_path=${schema}`);
  return {
    url: `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}options=${options}`,
    q: (text, values) => client.query(text, values),
    drop: async () => {
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

/** Builds the fixture in a fresh schema on `baseUrl`'s server; `url` selects that schema through search_path. */
export async function createV2hubFixture(baseUrl: string): Promise<V2hubFixture> {
  const { url, q, drop } = await createV2hubSchema(baseUrl);

  const user = async (userId: number, token: string, active = true): Promise<string> => {
    const hash = randomUUID();
    await q('insert into users (user_hash, user_id, api_token, is_active) values ($1, $2, $3, $4)', [
      hash,
      userId,
      token,
      active,
    ]);
    return hash;
  };
  const tokens = { short: token22(), long: token43(), inactive: token43(), bot: token43(), panel: token22() };
  const shortHash = await user(71001, tokens.short);
  const longHash = await user(71002, tokens.long);
  const inactiveHash = await user(71003, tokens.inactive, false);
  const botOwner = await user(72001, token43());
  const panelOwner = await user(72002, token43());
  const badIdHash = await user(0, token43());

  const provider = async (owner: string, name: string, token: string, url: string | null): Promise<string> => {
    const hash = randomUUID();
    await q(
      'insert into providers (provider_hash, owner_hash, provider_name, api_token, provider_url) values ($1, $2, $3, $4, $5)',
      [hash, owner, name, token, url],
    );
    return hash;
  };
  const bot = await provider(botOwner, 'vpn-bot', tokens.bot, 'https://bot.example.com');
  const panel = await provider(panelOwner, 'oldpanel', tokens.panel, null);
  const badName = await provider(inactiveHash, 'Bad_Name', token43(), 'not a url');

  const authorize = (providerHash: string, userHash: string, status: string) =>
    q('insert into provider_authorizations (provider_hash, user_hash, status) values ($1, $2, $3)', [
      providerHash,
      userHash,
      status,
    ]);
  await authorize(bot, shortHash, 'APPROVED');
  await authorize(bot, longHash, 'PENDING');
  await authorize(panel, shortHash, 'REVOKED');
  await authorize(panel, longHash, 'APPROVED');
  await authorize(badName, shortHash, 'APPROVED');

  let clock = Date.parse('2025-03-01T10:00:00.000Z');
  const subscription = async (
    userHash: string,
    name: string,
    providerHash: string | null = null,
    description: string | null = null,
  ): Promise<string> => {
    const token = token43();
    clock += 60_000;
    await q(
      'insert into subscriptions (token, name, user_hash, provider_hash, description, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $6)',
      [token, name, userHash, providerHash, description, new Date(clock).toISOString()],
    );
    return token;
  };
  const subs = {
    home: await subscription(shortHash, 'Дом 🏠', null, 'Мои серверы'),
    managed: await subscription(shortHash, 'Bot sub', bot),
    stray: await subscription(shortHash, 'From a bad provider', badName),
    work: await subscription(longHash, 'Работа'),
    feed: await subscription(longHash, 'Hidden feed'),
    panel: await subscription(longHash, 'Panel', panel),
    orphaned: await subscription(badIdHash, 'Lost'),
  };

  const configHashes = new Map<string, string>();
  for (const [name, data] of Object.entries(CONFIGS)) {
    configHashes.set(name, hex32(data));
    await q('insert into proxy_configs (config_hash, config_data, protocol) values ($1, $2, $3)', [
      hex32(data),
      data,
      data.split(':')[0],
    ]);
  }
  const feedUrl = 'https://feed.example.net/sub/abc';
  const unfetchedUrl = 'https://unfetched.example.net/sub';
  const deletedToken = token43();
  interface Row {
    config?: keyof typeof CONFIGS;
    ref?: string;
    url?: string;
    order: number;
    hidden?: boolean;
    depth?: number;
    comment?: string;
  }
  const sources = async (token: string, rows: Row[]): Promise<void> => {
    for (const row of rows) {
      const type = row.config ? 'config' : row.ref ? 'internal_token' : 'external_url';
      const configHash = row.config ? configHashes.get(row.config) : null;
      const id = hex32(row.config ? CONFIGS[row.config] : (row.ref ?? row.url ?? ''));
      await q(
        `insert into sources (subscription_token, id, source_type, config_hash, internal_token, external_url,
           is_hidden, max_depth, order_index) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [token, id, type, configHash, row.ref ?? null, row.url ?? null, row.hidden ?? false, row.depth ?? 3, row.order],
      );
      if (row.comment !== undefined) {
        await q('insert into config_comments (subscription_token, config_hash, comment) values ($1, $2, $3)', [
          token,
          configHash,
          row.comment,
        ]);
      }
    }
  };
  // Order indexes as v2hub leaves them after removals: gaps, not starting at 0.
  await sources(subs.home, [
    { config: 'paris', order: 7, comment: V2HUB_DOMAIN },
    { config: 'frankfurt', order: 2, comment: 'Frankfurt 🇩🇪' },
    { url: feedUrl, order: 5 },
    { config: 'broken', order: 9 },
  ]);
  await sources(subs.feed, [{ config: 'hidden', order: 0 }]);
  await sources(subs.work, [
    { config: 'frankfurt', order: 0, depth: 0, comment: 'Берлин' },
    { ref: subs.home, order: 1, depth: 2 },
    { ref: subs.feed, order: 2, hidden: true },
    { ref: deletedToken, order: 3 },
    { config: 'tokyo', order: 4, comment: '  ' },
  ]);
  await sources(subs.managed, [{ config: 'managed', order: 0 }]);
  await sources(subs.stray, [{ config: 'tokyo', order: 0 }]);
  await sources(subs.panel, [{ url: unfetchedUrl, order: 0 }]);
  await sources(subs.orphaned, [{ config: 'paris', order: 0 }]);

  const body = Buffer.from(UPSTREAM_LINES.join('\n')).toString('base64');
  const cache = (url: string, raw: string | null) =>
    q('insert into external_cache (url_hash, url, raw_content, fetched_at) values ($1, $2, $3, $4)', [
      hex32(url),
      url,
      raw,
      raw === null ? null : '2025-03-01T09:00:00Z',
    ]);
  await cache(feedUrl, body);
  await cache(unfetchedUrl, null);
  await cache('https://unused.example.net/sub', body);

  return {
    url,
    users: {
      short: { userId: 71001, token: tokens.short },
      long: { userId: 71002, token: tokens.long },
      inactive: { userId: 71003, token: tokens.inactive },
    },
    providers: { bot: { name: 'vpn-bot', token: tokens.bot }, panel: { name: 'oldpanel', token: tokens.panel } },
    subs,
    feedUrl,
    unfetchedUrl,
    deletedToken,
    addUser: async (userId) => {
      await user(userId, token43());
    },
    drop,
  };
}
