// Applies connection transitions for providers, users and admins inside transactions, so concurrent calls cannot break the rules.
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import type { ConnectionRow, ProviderRow } from '../../db/types.js';
import { errors } from '../../http/errors.js';
import { findProviderByHash, findProviderByName } from '../providers/providers.store.js';
import type { EventType } from '../../events/event-types.js';
import { writeWithEvents } from '../../events/outbox.js';
import { connectionEvent } from '../../events/subjects.js';
import { ensureUser } from '../users/users.service.js';
import { findUser } from '../users/users.store.js';
import type { ConnectionView, ProviderConnectionCreated, ProviderConnectionView } from './connections.schemas.js';
import {
  deleteConnection,
  findConnection,
  insertConnection,
  listUserConnections,
  lockUserConnections,
  setConnectionStatus,
} from './connections.store.js';
import { createInvite, verifyInvite } from './invite.js';
import { transition, type ConnectionEvent, type ConnectionStatus, type TransitionError } from './transitions.js';

export class ConnectionsService {
  private readonly db: Executor;
  private readonly inviteKey: string;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly config: Config,
  ) {
    this.db = database.db;
    // INVITE_SECRET is null only when ADMIN_SECRET is unset too, and then the admin API (the only verifier) answers
    // 503. A random per-process key still yields well-formed links whose invites nobody can forge or verify, which
    // is safer than a fixed fallback key anyone could read in the source.
    this.inviteKey = config.inviteSecret ?? randomBytes(32).toString('hex');
  }

  /** Provider POST /providers/{user_id}: opens (or re-opens) a request, creating the user when needed. */
  async request(
    provider: { providerHash: string; providerName: string },
    userId: number,
  ): Promise<ProviderConnectionCreated> {
    await this.refuseDisabledUser(userId);
    const { status } = (await this.apply(userId, provider.providerHash, 'request')) as ConnectionRow;
    const link = this.connectionLink(
      { provider_hash: provider.providerHash, provider_name: provider.providerName },
      userId,
    );
    return { user_id: userId, status, connection_link: link };
  }

  async providerView(providerHash: string, userId: number): Promise<ProviderConnectionView> {
    const row = await findConnection(this.db, userId, providerHash);
    if (!row) throw errors.connectionNotFound();
    return { user_id: userId, status: row.status, created_at: row.created_at, status_changed_at: row.updated_at };
  }

  /** Provider DELETE /providers/{user_id}: gives access up; the record stays so the user can re-approve later. */
  async providerRevoke(providerHash: string, userId: number): Promise<{ user_id: number; status: 'revoked' }> {
    await this.apply(userId, providerHash, 'provider_revoke');
    return { user_id: userId, status: 'revoked' };
  }

  /** Guards the provider-scoped subscription routes. */
  async requireApproved(providerHash: string, userId: number): Promise<void> {
    await this.refuseDisabledUser(userId);
    const row = await findConnection(this.db, userId, providerHash);
    if (row?.status !== 'approved') throw errors.connectionNotApproved();
  }

  /** The user's connections: pending and approved ones, or every status (the admin's view). */
  async list(userId: number, options: { includeRevoked?: boolean } = {}): Promise<ConnectionView[]> {
    const rows = await listUserConnections(
      this.db,
      userId,
      options.includeRevoked ? undefined : ['pending', 'approved'],
    );
    return rows.map((row) => view(row, row));
  }

  async view(userId: number, providerName: string): Promise<ConnectionView> {
    const provider = await this.providerNamed(providerName);
    const row = await findConnection(this.db, userId, provider.provider_hash);
    if (!row) throw errors.connectionNotFound();
    return view(provider, row);
  }

  approve(userId: number, providerName: string): Promise<ConnectionView> {
    return this.decide(userId, providerName, 'approve');
  }

  /** Deletes a pending request, or revokes it when the provider already created subscriptions for the user. */
  reject(userId: number, providerName: string): Promise<ConnectionView> {
    return this.decide(userId, providerName, 'reject');
  }

  /** User revoke: idempotent on a revoked record. */
  revoke(userId: number, providerName: string): Promise<ConnectionView> {
    return this.decide(userId, providerName, 'revoke');
  }

  /** Whether `invite` was issued by a connection link of this deployment for this user and provider. */
  verifyInvite(userId: number, providerHash: string, invite: string): boolean {
    return verifyInvite(this.inviteKey, invite, userId, providerHash);
  }

  /**
   * Admin authorize: a valid invite opens a pending request (creating the user when needed); an existing record is
   * left unchanged and its status returned.
   */
  async authorize(providerName: string, userId: number, invite: string) {
    const provider = await findProviderByName(this.db, providerName);
    if (!provider) throw errors.providerNotFound();
    if (!this.verifyInvite(userId, provider.provider_hash, invite)) throw errors.invalidInvite();
    const { status } = (await this.apply(userId, provider.provider_hash, 'authorize')) as ConnectionRow;
    return { user_id: userId, provider_name: provider.provider_name, status };
  }

  connectionLink(provider: Pick<ProviderRow, 'provider_hash' | 'provider_name'>, userId: number): string {
    const values: Record<string, string> = {
      base_url: this.config.publicBaseUrl,
      provider_name: encodeURIComponent(provider.provider_name),
      user_id: String(userId),
      invite: createInvite(this.inviteKey, userId, provider.provider_hash),
    };
    // One pass, so a substituted value is never scanned for placeholders again.
    return this.config.connectionLinkTemplate.replace(
      /\{(base_url|provider_name|user_id|invite)\}/g,
      (_, key: string) => values[key] ?? '',
    );
  }

  private async decide(userId: number, providerName: string, event: ConnectionEvent): Promise<ConnectionView> {
    const provider = await this.providerNamed(providerName);
    return view(provider, await this.apply(userId, provider.provider_hash, event));
  }

  /** Unknown provider names answer like a missing record (docs/api.md, Errors: `connection_not_found`). */
  private async providerNamed(name: string): Promise<ProviderRow> {
    const provider = await findProviderByName(this.db, name);
    if (!provider) throw errors.connectionNotFound();
    return provider;
  }

  /** A provider cannot act for a user whose account is disabled (docs/security.md, Disabled accounts); a user that does not exist yet is no obstacle. */
  private async refuseDisabledUser(userId: number): Promise<void> {
    const user = await findUser(this.db, userId);
    if (user && user.is_active !== 1) throw errors.userAccountDisabled(userId);
  }

  /** Runs one transition with the user's connections locked; returns the resulting record (null: none). */
  private async apply(userId: number, providerHash: string, event: ConnectionEvent): Promise<ConnectionRow | null> {
    const opens = event === 'request' || event === 'authorize';
    try {
      return await writeWithEvents(this.db, async (trx, emit) => {
        if (opens) await ensureUser(trx, userId, emit);
        const rows = await lockUserConnections(trx, this.database.dialect, userId);
        const row = rows.find((r) => r.provider_hash === providerHash);
        const current = row?.status ?? null;
        const result = transition(current, event, {
          approvedElsewhere: rows.filter((r) => r.status === 'approved' && r.provider_hash !== providerHash).length,
          maxApproved: this.config.maxProvidersPerUser,
          hadSubscriptions: row?.had_subscriptions === 1,
        });
        if (!result.ok) throw this.failure(result.error, current);
        const written = await write(trx, userId, providerHash, row, result.next);
        const type = eventOf(event, current, result.next);
        const provider = type && (await findProviderByHash(trx, providerHash));
        if (type && provider) {
          const named = { hash: providerHash, name: provider.provider_name };
          emit(connectionEvent(type, userId, named, { status: result.next, previous_status: current }));
        }
        return written;
      });
    } catch (error) {
      // Two first requests for one pair race to insert the record; the loser sees the winner's.
      if (opens && isUniqueViolation(error)) {
        const winner = await findConnection(this.db, userId, providerHash);
        if (event === 'authorize' && winner) return winner;
        throw errors.connectionExists(winner?.status ?? 'pending');
      }
      throw error;
    }
  }

  private failure(code: TransitionError, current: ConnectionStatus | null) {
    switch (code) {
      case 'connection_not_found':
        return errors.connectionNotFound();
      case 'connection_exists':
        return errors.connectionExists(current ?? 'pending');
      case 'connection_not_pending':
        return errors.connectionNotPending(current ?? 'absent');
      case 'provider_limit_reached':
        return errors.providerLimitReached(this.config.maxProvidersPerUser);
    }
  }
}

/** Stores the transition's result and returns the record as it now is (null: none). */
async function write(
  trx: Executor,
  userId: number,
  providerHash: string,
  row: ConnectionRow | undefined,
  next: ConnectionStatus | null,
): Promise<ConnectionRow | null> {
  const now = new Date().toISOString();
  if (next === null) {
    if (row) await deleteConnection(trx, userId, providerHash);
    return null;
  }
  if (!row) {
    const created: ConnectionRow = {
      user_id: userId,
      provider_hash: providerHash,
      status: next,
      had_subscriptions: 0,
      created_at: now,
      updated_at: now,
    };
    await insertConnection(trx, created);
    return created;
  }
  if (row.status === next) return row;
  await setConnectionStatus(trx, userId, providerHash, next, now);
  return { ...row, status: next, updated_at: now };
}

/** The event of a transition that changed something; none when the record stayed as it was. */
function eventOf(event: ConnectionEvent, from: ConnectionStatus | null, to: ConnectionStatus | null): EventType | null {
  if (from === to) return null;
  switch (event) {
    case 'request':
    case 'authorize':
      return 'connection.requested';
    case 'approve':
      return 'connection.approved';
    case 'reject':
      return 'connection.rejected';
    default:
      return 'connection.revoked';
  }
}

function view(
  provider: Pick<ProviderRow, 'provider_name' | 'provider_url'>,
  row: Pick<ConnectionRow, 'status' | 'created_at' | 'updated_at'> | null,
): ConnectionView {
  return {
    provider_name: provider.provider_name,
    provider_url: provider.provider_url === '' ? null : provider.provider_url,
    is_authorized: row?.status === 'approved',
    status: row?.status ?? null,
    created_at: row?.created_at ?? null,
    status_changed_at: row?.updated_at ?? null,
  };
}
