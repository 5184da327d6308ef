// Maps v2hub users, providers and provider authorizations onto subweave rows, checking them against the target.
import type { ConnectionRow, ProviderRow, UserRow } from '../../db/types.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { CONNECTION_STATUSES, type ConnectionStatus } from '../connections/transitions.js';
import { PROVIDER_NAME_PATTERN } from '../providers/providers.schemas.js';
import type { TargetKeys } from './target.store.js';
import type { V2hubAuthorization, V2hubData, V2hubProvider, V2hubUser } from './v2hub.store.js';
import type { ImportReport } from './report.js';

/** Who the imported rows belong to, in the target: v2hub user_hash -> user_id, and the providers that exist there. */
export interface Owners {
  userIds: Map<string, number>;
  providers: Set<string>;
}

export interface AccountRows {
  users: UserRow[];
  providers: ProviderRow[];
  connections: ConnectionRow[];
  owners: Owners;
}

const NAME_RE = new RegExp(PROVIDER_NAME_PATTERN);

export function mapAccounts(data: V2hubData, target: TargetKeys, report: ImportReport, now: string): AccountRows {
  const tokenHashes = new Set([...target.users, ...target.providers].map((row) => row.token_hash));
  const owners: Owners = { userIds: new Map(), providers: new Set() };
  const users = mapUsers(data.users, target, tokenHashes, owners, report, now);
  const providers = mapProviders(data.providers, target, tokenHashes, owners, report, now);
  const connections = mapAuthorizations(data, target, owners, report, now);
  return { users, providers, connections, owners };
}

/** The stored hash of an imported API token; a missing or clashing token becomes one nobody holds. */
function importedTokenHash(token: string | null, tokenHashes: Set<string>, report: ImportReport, who: string): string {
  const hash = token ? hashToken(token) : null;
  if (hash && !tokenHashes.has(hash)) {
    tokenHashes.add(hash);
    return hash;
  }
  report.note(
    `${who}: ${hash ? 'its API token is already used by another account in the target' : 'it has no API token'}; imported with a new one nobody knows (issue one with the admin API or \`subweave users token\`)`,
  );
  const fresh = hashToken(newToken());
  tokenHashes.add(fresh);
  return fresh;
}

function mapUsers(
  rows: V2hubUser[],
  target: TargetKeys,
  tokenHashes: Set<string>,
  owners: Owners,
  report: ImportReport,
  now: string,
): UserRow[] {
  const byId = new Map(target.users.map((u) => [u.user_id, u]));
  const idByHash = new Map(target.users.map((u) => [u.user_hash, u.user_id]));
  const out: UserRow[] = [];
  for (const row of rows) {
    const userId = row.user_id !== null && /^\d{1,16}$/.test(row.user_id) ? Number(row.user_id) : Number.NaN;
    if (!Number.isSafeInteger(userId) || userId < 1) {
      report.skip('users', row.user_hash, `user_id ${row.user_id ?? 'null'} is not a positive integer`);
      continue;
    }
    const existing = byId.get(userId);
    if (existing) {
      // The same account (a re-run), or the same person already signed up here: their rows join that account.
      owners.userIds.set(row.user_hash, userId);
      report.alreadyPresent('users');
      if (existing.user_hash !== row.user_hash) {
        report.note(`user ${userId}: already in the target with another user_hash; its v2hub data joins that account`);
      }
      continue;
    }
    const holder = idByHash.get(row.user_hash);
    if (holder !== undefined) {
      report.skip('users', row.user_hash, `user_hash already belongs to user ${holder} in the target`);
      continue;
    }
    const created = row.created_at ?? now;
    out.push({
      user_id: userId,
      user_hash: row.user_hash,
      token_hash: importedTokenHash(row.api_token, tokenHashes, report, `user ${userId}`),
      is_active: row.is_active ? 1 : 0,
      created_at: created,
      updated_at: created,
    });
    byId.set(userId, { user_id: userId, user_hash: row.user_hash, token_hash: '' });
    idByHash.set(row.user_hash, userId);
    owners.userIds.set(row.user_hash, userId);
    report.add('users');
  }
  return out;
}

function mapProviders(
  rows: V2hubProvider[],
  target: TargetKeys,
  tokenHashes: Set<string>,
  owners: Owners,
  report: ImportReport,
  now: string,
): ProviderRow[] {
  const known = new Set(target.providers.map((p) => p.provider_hash));
  const names = new Set(target.providers.map((p) => p.provider_name));
  const ownerIds = new Set(target.providers.map((p) => p.owner_user_id));
  const out: ProviderRow[] = [];
  for (const row of rows) {
    const key = `${row.provider_name} (${row.provider_hash})`;
    if (known.has(row.provider_hash)) {
      owners.providers.add(row.provider_hash);
      report.alreadyPresent('providers');
      continue;
    }
    const ownerId = owners.userIds.get(row.owner_hash);
    const problem =
      ownerId === undefined
        ? 'its owner was not imported'
        : !NAME_RE.test(row.provider_name)
          ? 'provider_name is not valid in subweave (4-16 lower-case letters, digits, single inner hyphens)'
          : names.has(row.provider_name)
            ? 'provider_name is taken by another provider in the target'
            : ownerIds.has(ownerId)
              ? `user ${ownerId} already owns a provider in the target`
              : null;
    if (problem !== null || ownerId === undefined) {
      report.skip('providers', key, problem ?? 'its owner was not imported');
      continue;
    }
    const created = row.created_at ?? now;
    out.push({
      provider_hash: row.provider_hash,
      provider_name: row.provider_name,
      provider_url: providerUrl(row.provider_url, report, row.provider_name),
      owner_user_id: ownerId,
      token_hash: importedTokenHash(row.api_token, tokenHashes, report, `provider ${row.provider_name}`),
      is_active: row.is_active ? 1 : 0,
      created_at: created,
      updated_at: created,
    });
    known.add(row.provider_hash);
    names.add(row.provider_name);
    ownerIds.add(ownerId);
    owners.providers.add(row.provider_hash);
    report.add('providers');
  }
  return out;
}

/** subweave stores '' for no URL; anything but an http(s) URL is dropped with a note. */
function providerUrl(raw: string | null, report: ImportReport, name: string): string {
  const url = raw?.trim() ?? '';
  if (url === '') return '';
  if (/^https?:\/\/[^\s]+$/i.test(url) && URL.canParse(url)) return url;
  report.note(`provider ${name}: provider_url "${url}" is not an http(s) URL; imported without one`);
  return '';
}

const STATUS_MAP: Record<string, ConnectionStatus> = Object.fromEntries(
  CONNECTION_STATUSES.map((status) => [status.toUpperCase(), status]),
);

function mapAuthorizations(
  data: V2hubData,
  target: TargetKeys,
  owners: Owners,
  report: ImportReport,
  now: string,
): ConnectionRow[] {
  const existing = new Set(target.connections.map((c) => `${c.user_id} ${c.provider_hash}`));
  const managed = new Set(
    data.subscriptions.filter((s) => s.provider_hash !== null).map((s) => `${s.user_hash} ${s.provider_hash}`),
  );
  const out: ConnectionRow[] = [];
  for (const row of data.authorizations as V2hubAuthorization[]) {
    const key = `${row.provider_hash} / ${row.user_hash}`;
    const userId = owners.userIds.get(row.user_hash);
    const status = STATUS_MAP[row.status];
    if (userId === undefined || !owners.providers.has(row.provider_hash) || status === undefined) {
      const reason =
        userId === undefined
          ? 'its user was not imported'
          : status === undefined
            ? `unknown status ${row.status}`
            : 'its provider was not imported';
      report.skip('authorizations', key, reason);
      continue;
    }
    if (existing.has(`${userId} ${row.provider_hash}`)) {
      report.alreadyPresent('authorizations');
      continue;
    }
    existing.add(`${userId} ${row.provider_hash}`);
    out.push({
      user_id: userId,
      provider_hash: row.provider_hash,
      status,
      had_subscriptions: managed.has(`${row.user_hash} ${row.provider_hash}`) ? 1 : 0,
      created_at: row.created_at ?? now,
      updated_at: row.updated_at ?? row.created_at ?? now,
    });
    report.add('authorizations');
  }
  return out;
}
