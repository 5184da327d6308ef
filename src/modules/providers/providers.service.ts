// Provider accounts: creation, lookup, token rotation, changes and deletion, shared by the CLI and the admin API.
import type { DatabaseHandle } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { ProviderRow } from '../../db/types.js';
import { errors } from '../../http/errors.js';
import type { ChangeLog } from '../../changes/change-log.js';
import { hashToken, newHash, newToken } from '../../shared/tokens.js';
import { findUser } from '../users/users.store.js';
import {
  MAX_PROVIDER_URL_LENGTH,
  PROVIDER_NAME_PATTERN,
  type Provider,
  type ProviderWithToken,
} from './providers.schemas.js';
import {
  deleteProvider,
  findProviderByHash,
  findProviderByName,
  findProviderByOwner,
  findProviderByTokenHash,
  insertProvider,
  listProviders,
  lockProvider,
  updateProvider,
} from './providers.store.js';
import { tokensManagedBy } from '../subscriptions/subscriptions.store.js';
import { writeWithEvents } from '../../events/outbox.js';
import { providerEvent } from '../../events/subjects.js';

export interface CreateProviderInput {
  owner_id: number;
  provider_name: string;
  /** Optional: null or empty stores no URL. */
  provider_url?: string | null;
}

export interface UpdateProviderInput {
  is_active?: boolean;
  provider_name?: string;
  provider_url?: string | null;
}

const NAME_RE = new RegExp(PROVIDER_NAME_PATTERN);

export class ProvidersService {
  private readonly db: Executor;

  constructor(
    private readonly database: DatabaseHandle,
    /** Told about deleted subscriptions so cached public output is dropped; absent where no cache runs (CLI). */
    private readonly changes: ChangeLog,
  ) {
    this.db = database.db;
  }

  async create(input: CreateProviderInput): Promise<ProviderWithToken> {
    const name = validName(input.provider_name);
    const url = validUrl(input.provider_url);
    if (!(await findUser(this.db, input.owner_id))) throw errors.userNotFound();
    await this.assertFree(name, input.owner_id);
    const apiToken = newToken();
    const now = new Date().toISOString();
    const row: ProviderRow = {
      provider_hash: newHash(),
      provider_name: name,
      provider_url: url,
      owner_user_id: input.owner_id,
      token_hash: hashToken(apiToken),
      is_active: 1,
      created_at: now,
      updated_at: now,
    };
    await writeWithEvents(this.db, async (trx, emit) => {
      await insertProvider(trx, row);
      emit(providerEvent('provider.created', { hash: row.provider_hash, name }, { owner_id: input.owner_id }));
    }).catch((error: unknown) => this.rethrowClash(error, name, input.owner_id));
    return { ...toProvider(row), api_token: apiToken };
  }

  async get(providerHash: string): Promise<Provider> {
    return toProvider(found(await findProviderByHash(this.db, providerHash)));
  }

  async getByName(name: string): Promise<Provider> {
    return toProvider(found(await findProviderByName(this.db, name)));
  }

  /** The provider called `name`, or undefined (the connect page answers its own 404). */
  async findByName(name: string): Promise<Provider | undefined> {
    const row = await findProviderByName(this.db, name);
    return row && toProvider(row);
  }

  /** The holder of a provider API token (authentication). */
  async findByToken(token: string): Promise<Provider | undefined> {
    const row = await findProviderByTokenHash(this.db, hashToken(token));
    return row && toProvider(row);
  }

  async getByOwner(ownerId: number): Promise<Provider> {
    return toProvider(found(await findProviderByOwner(this.db, ownerId)));
  }

  async list(): Promise<Provider[]> {
    return (await listProviders(this.db)).map(toProvider);
  }

  /** Issues a new API token; the previous one stops working at once. */
  async rotateToken(providerHash: string): Promise<ProviderWithToken> {
    const apiToken = newToken();
    await writeWithEvents(this.db, async (trx, emit) => {
      const row = found(await findProviderByHash(trx, providerHash));
      await updateProvider(trx, providerHash, {
        token_hash: hashToken(apiToken),
        updated_at: new Date().toISOString(),
      });
      emit(providerEvent('provider.token_refreshed', { hash: providerHash, name: row.provider_name }));
    });
    return { ...(await this.get(providerHash)), api_token: apiToken };
  }

  async update(providerHash: string, input: UpdateProviderInput): Promise<Provider> {
    if (input.is_active === undefined && input.provider_name === undefined && input.provider_url === undefined) {
      throw errors.noUpdateFields(['is_active', 'provider_name', 'provider_url']);
    }
    const current = found(await findProviderByHash(this.db, providerHash));
    const changes: Parameters<typeof updateProvider>[2] = { updated_at: new Date().toISOString() };
    if (input.is_active !== undefined) changes.is_active = input.is_active ? 1 : 0;
    if (input.provider_url !== undefined) changes.provider_url = validUrl(input.provider_url);
    if (input.provider_name !== undefined && input.provider_name !== current.provider_name) {
      changes.provider_name = validName(input.provider_name);
      await this.assertFree(changes.provider_name, null);
    }
    const changed = (['is_active', 'provider_name', 'provider_url'] as const).filter(
      (field) => input[field] !== undefined,
    );
    await writeWithEvents(this.db, async (trx, emit) => {
      await updateProvider(trx, providerHash, changes);
      const name = changes.provider_name ?? current.provider_name;
      emit(providerEvent('provider.updated', { hash: providerHash, name }, { changed }));
    }).catch((error: unknown) => this.rethrowClash(error, changes.provider_name ?? '', null));
    return this.get(providerHash);
  }

  /** Deletes the provider, its connections and every subscription it manages (foreign keys cascade). */
  async remove(providerHash: string): Promise<void> {
    await this.changes.write(async (trx, record, emit) => {
      // Locking the provider row blocks concurrent inserts that reference it, so the token list is complete.
      if (!(await lockProvider(trx, this.database.dialect, providerHash))) throw errors.providerNotFound();
      const row = found(await findProviderByHash(trx, providerHash));
      const managed = await tokensManagedBy(trx, providerHash);
      await deleteProvider(trx, providerHash);
      for (const token of managed) record({ kind: 'subscription', token });
      const subject = { hash: providerHash, name: row.provider_name };
      emit(providerEvent('provider.deleted', subject, { subscriptions_deleted: managed.length }));
    });
  }

  private async assertFree(name: string, ownerId: number | null): Promise<void> {
    if (await findProviderByName(this.db, name)) throw errors.providerExists('provider_name');
    if (ownerId !== null && (await findProviderByOwner(this.db, ownerId))) throw errors.providerExists('owner_id');
  }

  /** A unique violation means a concurrent writer took the name or the owner first. */
  private async rethrowClash(error: unknown, name: string, ownerId: number | null): Promise<never> {
    if (isUniqueViolation(error)) {
      await this.assertFree(name, ownerId);
      throw errors.providerExists('provider_name');
    }
    throw error;
  }
}

function found(row: ProviderRow | undefined): ProviderRow {
  if (!row) throw errors.providerNotFound();
  return row;
}

export function toProvider(row: ProviderRow): Provider {
  return {
    provider_hash: row.provider_hash,
    provider_name: row.provider_name,
    provider_url: row.provider_url,
    owner_id: row.owner_user_id,
    is_active: row.is_active === 1,
    created_at: row.created_at,
  };
}

function validName(name: string): string {
  if (!NAME_RE.test(name)) {
    throw errors.validation('The provider name is not valid.', [
      { path: 'body.provider_name', message: 'must be 4-16 lower-case letters and digits, with single inner hyphens' },
    ]);
  }
  return name;
}

function validUrl(raw: string | null | undefined): string {
  const url = raw?.trim() ?? '';
  if (url === '') return '';
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (
    !parsed ||
    !['http:', 'https:'].includes(parsed.protocol) ||
    !parsed.host ||
    url.length > MAX_PROVIDER_URL_LENGTH
  ) {
    throw errors.validation('The provider URL is not valid.', [
      { path: 'body.provider_url', message: `must be an http(s) URL of at most ${MAX_PROVIDER_URL_LENGTH} characters` },
    ]);
  }
  return url;
}
