// The rules of subscriptions and their source lists (docs/api.md, Subscriptions and Sources), for any scope.
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Executor } from '../../db/executor.js';
import { lockReferenceGraph } from '../../db/graph-lock.js';
import { errors } from '../../http/errors.js';
import { newToken } from '../../shared/tokens.js';
import {
  checkExternalHosts,
  checkReferences,
  copiedLinkTokens,
  prepareSources,
  toRows,
  type PreparedSource,
} from '../sources/source-input.js';
import {
  deleteAllSources,
  deleteSources,
  findSource,
  insertSources,
  listSources,
  updateSource,
} from '../sources/sources.store.js';
import {
  MAX_SOURCES_PER_REQUEST,
  type CreateSubscriptionInput,
  type PasteReport,
  type SourceInput,
} from './subscriptions.schemas.js';
import {
  classifyPastedLine,
  MAX_PASTE_LINES,
  pastedLines,
  skippedFor,
  type LineVerdict,
  type PastedLine,
} from '../sources/paste.js';
import type { UpdateConfigInput, UpdateSubscriptionInput } from './subscriptions.schemas.js';
import { scopeKey, type Scope } from './scope.js';
import {
  countInScope,
  deleteSubscription,
  existingTokens,
  insertSubscription,
  listSubscriptions,
  lockSubscription,
  nameTaken,
  nextCreationTime,
  touchSubscription,
  updateSubscription,
  type SubscriptionWithProvider,
} from './subscriptions.store.js';
import { lockUser } from '../users/users.store.js';
import { markHadSubscriptions } from '../connections/connections.store.js';
import { SubscriptionViews } from './subscriptions.views.js';
import { type RefreshReport, SubscriptionRefresher } from './subscription-refresh.js';
import { rethrowNameExists, validName } from './subscription-names.js';
import { loadForScope, type AccessMode } from './access.js';
import { LINK_SETTINGS_FIELDS, settingsColumns } from './link-settings.js';
import { rotateToken } from './rotate.js';
import type { RenderCache } from '../resolve/render-cache.js';
import type { ChangeLog } from '../../changes/change-log.js';
import type { ExternalSources, RefreshOptions } from '../fetch/external-sources.js';
import { fetchKey } from '../fetch/fetch-options.js';
import { configForm } from '../sources/config-form.js';
import { subscriptionEvent, subscriptionId, type SubscriptionSubject } from '../../events/subjects.js';
import { requestedChain, storedTransforms } from '../transforms/stored.js';

/** The column value of a requested chain (400 invalid_transform for a bad one). */
function transformsColumn(input: unknown[]): string | null {
  return storedTransforms(requestedChain(input).map((compiled) => compiled.operator));
}

export class SubscriptionsService {
  private readonly db: Executor;
  private readonly views: SubscriptionViews;
  private readonly refresher: SubscriptionRefresher;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly config: Config,
    cache: RenderCache,
    private readonly changes: ChangeLog,
    private readonly external: ExternalSources,
  ) {
    this.db = database.db;
    this.views = new SubscriptionViews(database.db, config, cache, external);
    this.refresher = new SubscriptionRefresher(database.db, external);
  }

  async list(scope: Scope) {
    const rows = await listSubscriptions(this.db, scope.userId, scope.provider ? scopeKey(scope) : undefined);
    return this.views.listItems(rows);
  }

  async get(scope: Scope, token: string) {
    return this.views.full(await this.load(scope, token, 'read'));
  }

  async create(scope: Scope, input: CreateSubscriptionInput) {
    const name = validName(input.name);
    const settings = settingsColumns(input);
    const transforms = input.transforms ? transformsColumn(input.transforms) : null;
    const prepared = await this.prepare(input.sources ?? []);
    this.assertWithinSourceLimit(prepared.length);
    await checkExternalHosts(prepared, this.config.fetchAllowPrivate);
    const token = newToken();
    await this.changes.write(async (trx, record, emit) => {
      await this.lockGraph(trx, prepared);
      record({ kind: 'subscription', token });
      emit(subscriptionEvent('subscription.created', { token, ...scope }, { name, sources: prepared.length }));
      await lockUser(trx, this.database.dialect, scope.userId);
      // Under the user lock: strictly after the user's newest subscription, so "oldest first" never rests on a tie.
      const now = await nextCreationTime(trx, scope.userId);
      await this.assertNameFree(trx, scope, name);
      const count = await countInScope(trx, scope.userId, scopeKey(scope));
      if (count >= this.config.maxSubscriptionsPerUser) {
        throw errors.subscriptionLimitReached(this.config.maxSubscriptionsPerUser);
      }
      await checkReferences(trx, token, prepared, this.config.maxNestingDepth);
      await insertSubscription(trx, {
        token,
        user_id: scope.userId,
        provider_hash: scope.provider?.hash ?? null,
        scope: scopeKey(scope),
        name,
        description: input.description ?? null,
        ...settings,
        transforms,
        created_at: now,
        updated_at: now,
      }).catch(rethrowNameExists(name));
      await insertSources(trx, toRows(token, prepared, 0, now));
      if (scope.provider) await markHadSubscriptions(trx, scope.userId, scope.provider.hash);
    });
    await this.fetchNewUrls(prepared);
    return this.get(scope, token);
  }

  async update(scope: Scope, token: string, input: UpdateSubscriptionInput) {
    const fields = ['name', 'description', ...LINK_SETTINGS_FIELDS, 'transforms'] as const;
    if (fields.every((field) => input[field] === undefined)) throw errors.noUpdateFields([...fields]);
    const subscription = await this.load(scope, token, 'write');
    const changes: Parameters<typeof updateSubscription>[2] = {
      ...settingsColumns(input),
      updated_at: new Date().toISOString(),
    };
    if (input.name !== undefined) changes.name = validName(input.name);
    if (input.description !== undefined) changes.description = input.description;
    if (input.transforms !== undefined) changes.transforms = transformsColumn(input.transforms ?? []);
    if (changes.name !== undefined && changes.name !== subscription.name) {
      await this.assertNameFree(this.db, scope, changes.name);
    }
    await this.changes.write(async (trx, record, emit) => {
      record({ kind: 'subscription', token });
      emit(subscriptionEvent('subscription.updated', subject(subscription), { changed: changedFields(input) }));
      await updateSubscription(trx, token, changes).catch(rethrowNameExists(changes.name ?? ''));
    });
    return this.get(scope, token);
  }

  /** PUT .../transforms: the chain replaced; the cached bodies of this and every including subscription drop. */
  async replaceTransforms(scope: Scope, token: string, transforms: unknown[] | null) {
    const subscription = await this.load(scope, token, 'write');
    const column = transformsColumn(transforms ?? []);
    await this.changes.write(async (trx, record, emit) => {
      record({ kind: 'subscription', token });
      emit(subscriptionEvent('subscription.updated', subject(subscription), { changed: ['transforms'] }));
      await updateSubscription(trx, token, { transforms: column, updated_at: new Date().toISOString() });
    });
    return this.get(scope, token);
  }

  async remove(scope: Scope, token: string): Promise<void> {
    const subscription = await this.load(scope, token, 'write');
    await this.changes.write(async (trx, record, emit) => {
      record({ kind: 'subscription', token });
      emit(subscriptionEvent('subscription.deleted', subject(subscription)));
      await deleteSubscription(trx, token);
    });
  }

  /** POST .../rotate: the subscription under a new token; the old one is gone at once, references follow. */
  async rotate(scope: Scope, token: string) {
    const subscription = await this.load(scope, token, 'write');
    const fresh = newToken();
    await this.changes.write(async (trx, record, emit) => {
      await rotateToken(trx, this.database.dialect, token, fresh, record);
      const event = { ...subject(subscription), token: fresh };
      emit(subscriptionEvent('subscription.rotated', event, { previous_subscription_id: subscriptionId(token) }));
    });
    return this.get(scope, fresh);
  }

  async addSources(scope: Scope, token: string, inputs: SourceInput[]) {
    if (inputs.length > MAX_SOURCES_PER_REQUEST) {
      throw errors.tooManySources(MAX_SOURCES_PER_REQUEST, inputs.length);
    }
    const subscription = await this.load(scope, token, 'write');
    const prepared = await this.prepare(inputs);
    await checkExternalHosts(prepared, this.config.fetchAllowPrivate);
    await this.changes.write(async (trx, record, emit) => {
      await this.lockGraph(trx, prepared);
      record({ kind: 'subscription', token });
      await lockSubscription(trx, this.database.dialect, token);
      const existing = await listSources(trx, token);
      const known = new Set(existing.map((s) => s.id));
      const fresh = prepared.filter((s) => !known.has(s.id));
      const total = existing.length + fresh.length;
      if (total > this.config.maxSourcesPerSubscription) {
        throw errors.tooManySources(this.config.maxSourcesPerSubscription, total);
      }
      if (fresh.length === 0) return;
      await checkReferences(trx, token, fresh, this.config.maxNestingDepth);
      const nextIndex = existing.reduce((max, s) => Math.max(max, s.order_index + 1), 0);
      const now = new Date().toISOString();
      await insertSources(trx, toRows(token, fresh, nextIndex, now));
      await touchSubscription(trx, token, now);
      emit(subscriptionEvent('subscription.updated', subject(subscription), { sources_added: fresh.length }));
    });
    await this.fetchNewUrls(prepared);
    return this.get(scope, token);
  }

  /**
   * POST .../sources with `{text}`: every non-blank line added or skipped on its own, the added ones in one
   * transaction with one event carrying the counts (docs/api.md "Paste many").
   */
  async pasteSources(scope: Scope, token: string, text: string): Promise<PasteReport> {
    const { lines, base64 } = pastedLines(text);
    if (lines.length === 0) {
      throw errors.validation('The text holds no source: every line is blank.', [
        { path: 'body.text', message: 'has no non-blank line' },
      ]);
    }
    if (lines.length > MAX_PASTE_LINES) throw errors.tooManySources(MAX_PASTE_LINES, lines.length);
    const subscription = await this.load(scope, token, 'write');
    const baseUrl = this.config.publicBaseUrl;
    const known = await existingTokens(
      this.db,
      copiedLinkTokens(
        lines.map((l) => l.text),
        baseUrl,
      ),
    );
    const verdicts = await Promise.all(
      lines.map(async ({ text: line }) => {
        const verdict = classifyPastedLine(line, baseUrl, known);
        if (!verdict.ok || verdict.source.type !== 'external_url') return verdict;
        return checkExternalHosts([verdict.source], this.config.fetchAllowPrivate).then(() => verdict, skippedFor);
      }),
    );
    const added = await this.changes.write(async (trx, record, emit) => {
      const candidates = verdicts.flatMap((v) => (v.ok ? [v.source] : []));
      await this.lockGraph(trx, candidates);
      record({ kind: 'subscription', token });
      await lockSubscription(trx, this.database.dialect, token);
      const existing = await listSources(trx, token);
      const held = new Set(existing.map((s) => s.id));
      /** Source id -> the line that added it. */
      const pasted = new Map<string, number>();
      let room = this.config.maxSourcesPerSubscription - existing.length;
      const fresh: PreparedSource[] = [];
      for (const [index, verdict] of verdicts.entries()) {
        if (!verdict.ok) continue;
        const { source } = verdict;
        let skip: LineVerdict | null = null;
        const earlier = pasted.get(source.id);
        if (held.has(source.id)) skip = { ok: false, reason: 'duplicate', message: 'already in the subscription' };
        else if (earlier !== undefined) skip = { ok: false, reason: 'duplicate', message: `same as line ${earlier}` };
        else if (source.refToken !== null) {
          skip = await checkReferences(trx, token, [source], this.config.maxNestingDepth).then(() => null, skippedFor);
        }
        if (!skip && room <= 0) {
          const max = this.config.maxSourcesPerSubscription;
          skip = {
            ok: false,
            reason: 'limit_reached',
            message: `the subscription holds ${max} sources, the most allowed`,
          };
        }
        if (skip) {
          verdicts[index] = skip;
          continue;
        }
        pasted.set(source.id, (lines[index] as PastedLine).line);
        room--;
        fresh.push(source);
      }
      if (fresh.length === 0) return fresh;
      const nextIndex = existing.reduce((max, s) => Math.max(max, s.order_index + 1), 0);
      const now = new Date().toISOString();
      await insertSources(trx, toRows(token, fresh, nextIndex, now));
      await touchSubscription(trx, token, now);
      const counts = { sources_added: fresh.length, lines_skipped: lines.length - fresh.length };
      emit(subscriptionEvent('subscription.updated', subject(subscription), counts));
      return fresh;
    });
    await this.fetchNewUrls(added);
    return {
      added: added.length,
      skipped: lines.length - added.length,
      base64,
      lines: lines.map(({ line, text: data }, index) => {
        const verdict = verdicts[index] as LineVerdict;
        return {
          line,
          data: data.slice(0, 200),
          status: verdict.ok ? 'added' : 'skipped',
          source_id: verdict.ok ? verdict.source.id : null,
          reason: verdict.ok ? null : verdict.reason,
          message: verdict.ok ? null : verdict.message,
        };
      }),
      subscription: await this.get(scope, token),
    };
  }

  async replaceSources(scope: Scope, token: string, inputs: SourceInput[]) {
    const subscription = await this.load(scope, token, 'write');
    const prepared = await this.prepare(inputs);
    this.assertWithinSourceLimit(prepared.length);
    await checkExternalHosts(prepared, this.config.fetchAllowPrivate);
    await this.changes.write(async (trx, record, emit) => {
      await this.lockGraph(trx, prepared);
      record({ kind: 'subscription', token });
      await lockSubscription(trx, this.database.dialect, token);
      // A reference the list already holds may stay even when its subscription is gone, so lists round-trip.
      const held = new Set((await listSources(trx, token)).map((s) => s.id));
      await checkReferences(trx, token, prepared, this.config.maxNestingDepth, held);
      const now = new Date().toISOString();
      await deleteAllSources(trx, token);
      await insertSources(trx, toRows(token, prepared, 0, now));
      await touchSubscription(trx, token, now);
      emit(subscriptionEvent('subscription.updated', subject(subscription), { sources_replaced: prepared.length }));
    });
    await this.fetchNewUrls(prepared);
    return this.get(scope, token);
  }

  async removeSources(scope: Scope, token: string, ids: string[]) {
    const subscription = await this.load(scope, token, 'write');
    await this.changes.write(async (trx, record, emit) => {
      record({ kind: 'subscription', token });
      await lockSubscription(trx, this.database.dialect, token);
      const known = new Set((await listSources(trx, token)).map((s) => s.id));
      const unknown = [...new Set(ids)].filter((id) => !known.has(id));
      if (unknown.length > 0) throw errors.sourceNotFound(unknown);
      await deleteSources(trx, token, [...new Set(ids)]);
      await touchSubscription(trx, token, new Date().toISOString());
      emit(subscriptionEvent('subscription.updated', subject(subscription), { sources_removed: new Set(ids).size }));
    });
    return this.get(scope, token);
  }

  /** PATCH .../config (and the deprecated .../comments, which passes only config_id and comment). */
  async updateConfig(scope: Scope, token: string, input: UpdateConfigInput): Promise<void> {
    const subscription = await this.load(scope, token, 'write');
    const source = await findSource(this.db, token, input.config_id);
    if (!source) throw errors.configNotFound(input.config_id);
    const now = new Date().toISOString();
    const changes: Parameters<typeof updateSource>[3] & { updated_at: string } = { updated_at: now };
    if (input.comment !== undefined) {
      const comment = input.comment?.trim() || null;
      if (comment !== null && source.source_type !== 'config') throw errors.commentNotApplicable(source.source_type);
      if (source.source_type === 'config') Object.assign(changes, { comment }, configForm(source.data, comment));
    }
    if (input.is_hidden !== undefined && input.is_hidden !== null) changes.is_hidden = input.is_hidden ? 1 : 0;
    if (input.max_depth !== undefined && input.max_depth !== null) changes.max_depth = input.max_depth;
    if (Object.keys(changes).length === 1) return; // only updated_at: nothing to change
    await this.changes.write(async (trx, record, emit) => {
      record({ kind: 'subscription', token });
      await updateSource(trx, token, source.id, changes);
      await touchSubscription(trx, token, now);
      // The fields the request changed, not the stored forms a comment rewrites (line, parsed, ...).
      const changed = (['comment', 'is_hidden', 'max_depth'] as const).filter((field) => field in changes);
      emit(subscriptionEvent('subscription.updated', subject(subscription), { source_id: source.id, changed }));
    });
  }

  /** POST .../refresh: re-fetches every external source of the subscription now (see subscription-refresh.ts). */
  async refresh(scope: Scope, token: string, options: RefreshOptions = {}): Promise<RefreshReport> {
    await this.load(scope, token, 'read');
    return this.refresher.refresh(token, options);
  }

  /** Classifies source input, looking up the tokens of links to this service copied from other addresses. */
  private async prepare(inputs: SourceInput[]): Promise<PreparedSource[]> {
    const baseUrl = this.config.publicBaseUrl;
    const known = await existingTokens(this.db, copiedLinkTokens(inputs, baseUrl));
    return prepareSources(inputs, baseUrl, known);
  }

  /** First fetch of external URLs just added: waited for FETCH_TIMEOUT_MS in total, then left to run on. */
  private async fetchNewUrls(sources: PreparedSource[]): Promise<void> {
    const keys = sources.filter((s) => s.type === 'external_url').map((s) => fetchKey(s.identity, s.fetchOptions));
    await this.external.fetchNewWithin(keys, this.config.fetchTimeoutMs);
  }

  /** Writes that add internal references take the graph lock first (see db/graph-lock.ts); others need none. */
  private async lockGraph(trx: Executor, sources: PreparedSource[]): Promise<void> {
    if (sources.some((s) => s.refToken !== null)) await lockReferenceGraph(trx, this.database.dialect);
  }

  private load(scope: Scope, token: string, mode: AccessMode): Promise<SubscriptionWithProvider> {
    return loadForScope(this.db, scope, token, mode);
  }

  private async assertNameFree(db: Executor, scope: Scope, name: string): Promise<void> {
    if (await nameTaken(db, scope.userId, scopeKey(scope), name)) throw errors.nameExists(name);
  }

  private assertWithinSourceLimit(count: number): void {
    if (count > this.config.maxSourcesPerSubscription) {
      throw errors.validation(`A subscription holds at most ${this.config.maxSourcesPerSubscription} sources.`, [
        {
          path: 'body.sources',
          message: `must hold at most ${this.config.maxSourcesPerSubscription} distinct sources`,
        },
      ]);
    }
  }
}

/** Who a subscription belongs to, for its events: its managing provider even when its user acts. */
function subject(row: SubscriptionWithProvider): SubscriptionSubject {
  const provider = row.provider_hash && row.provider_name ? { hash: row.provider_hash, name: row.provider_name } : null;
  return { token: row.token, userId: row.user_id, provider };
}

/** The names of the fields an update sets, never their values. */
function changedFields(input: UpdateSubscriptionInput): string[] {
  return Object.entries(input)
    .filter(([, value]) => value !== undefined)
    .map(([field]) => field);
}
