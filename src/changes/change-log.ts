// Makes every instance converge: writes record what they invalidate in the database, and every instance applies the log.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeKind } from '../db/column-values.js';
import type { DatabaseHandle } from '../db/database.js';
import { inTransaction, type Executor } from '../db/executor.js';
import type { Emit, EventInput } from '../events/event-types.js';
import { writeEvents } from '../events/outbox.js';
import type { Redis } from '../redis.js';
import {
  appendChanges,
  changesAfter,
  changesWithIds,
  lastChangeId,
  pruneChanges,
  type LoggedChange,
} from './change-log.store.js';

export type Change =
  | { kind: 'subscription'; token: string }
  | { kind: 'url'; url: string }
  | { kind: 'user'; userId: number }
  | { kind: Exclude<ChangeKind, 'subscription' | 'url' | 'user'> };

/** 'everything': this instance missed more of the log than it keeps (a long outage); drop every cached thing. */
export type ChangeBatch = readonly Change[] | 'everything';
export type ChangeListener = (changes: ChangeBatch) => void | Promise<void>;
/** Records one change inside the running write transaction. */
export type RecordChange = (change: Change) => void;

export interface ChangeLogOptions {
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Relays a notice on `channel` so other instances read the log at once instead of at their next poll. */
  redis?: Redis | null;
  channel?: string;
  pollMs?: number;
  retentionMs?: number;
}

const DEFAULT_POLL_MS = 250;
const DEFAULT_RETENTION_MS = 15 * 60_000;
const PRUNE_EVERY_MS = 60_000;
const READ_LIMIT = 1000;
/** A missing id is a transaction still committing (PostgreSQL hands out ids before commit) or a rolled-back one. */
const GAP_WAIT_MS = 10_000;
const MAX_TRACKED_GAPS = 10_000;

export class ChangeLog {
  private readonly listeners = new Set<ChangeListener>();
  private readonly instance = randomUUID();
  /** Every id up to here is applied, except those in `gaps` (id -> when first missed). */
  private highest = 0;
  private readonly gaps = new Map<number, number>();
  private lastReadAt = Date.now();
  private nextPruneAt = 0;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private failing = false;
  private timer: NodeJS.Timeout | null = null;
  private subscriber: Redis | null = null;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly options: ChangeLogOptions = {},
  ) {}

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * For a snapshot of settings every instance serves with: runs `reload` now, then again on every batch that holds a
   * change of one of `kinds` (or after this instance lost track of the log).
   */
  async keepLoaded(kinds: readonly ChangeKind[], reload: () => Promise<void>): Promise<void> {
    await reload();
    this.subscribe(async (batch) => {
      if (batch === 'everything' || batch.some((change) => kinds.includes(change.kind))) await reload();
    });
  }

  /**
   * Runs `work` in one transaction; what it records is appended to the log in that transaction and, after the
   * commit, applied on this instance (awaited) and announced to the others. The events it emits are written in the
   * same transaction (events/outbox.ts).
   */
  async write<T>(work: (trx: Executor, record: RecordChange, emit: Emit) => Promise<T>): Promise<T> {
    const recorded: Change[] = [];
    const emitted: EventInput[] = [];
    let ids: number[] = [];
    const result = await inTransaction(this.database.db, async (trx) => {
      const value = await work(
        trx,
        (change) => recorded.push(change),
        (event) => emitted.push(event),
      );
      await writeEvents(trx, emitted);
      ids = await appendChanges(trx, recorded.map(toRow), new Date().toISOString());
      return value;
    });
    if (recorded.length > 0) {
      for (const id of ids) this.markApplied(id, Date.now());
      await this.deliver(recorded);
      this.announce();
    }
    return result;
  }

  /** Starts from the end of the log, polls it, and listens for notices when Redis is configured. */
  async start(): Promise<void> {
    this.highest = await lastChangeId(this.database.db);
    this.lastReadAt = Date.now();
    this.timer = setInterval(() => void this.applyNew(), this.options.pollMs ?? DEFAULT_POLL_MS);
    this.timer.unref();
    const { redis, channel } = this.options;
    if (redis && channel) {
      const subscriber = redis.duplicate();
      this.subscriber = subscriber;
      subscriber.on('error', () => undefined); // the main client logs Redis outages once
      subscriber.on('message', (_channel: string, from: string) => {
        if (from !== this.instance) void this.applyNew();
      });
      // (Re)subscribe on every connection, and read what was missed while Redis was away.
      subscriber.on('ready', () => {
        subscriber.subscribe(channel).then(
          () => this.applyNew(),
          () => undefined,
        );
      });
    }
  }

  /** Reads and applies log entries this instance has not applied yet; never rejects. */
  applyNew(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = (async () => {
      do {
        this.pollAgain = false;
        await this.readOnce();
      } while (this.pollAgain);
    })()
      .catch((error: unknown) => {
        if (!this.failing)
          this.options.log?.warn({ err: errorText(error) }, 'change log unreadable; retrying every poll');
        this.failing = true;
      })
      .finally(() => {
        this.polling = null;
      });
    return this.polling;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
    if (this.subscriber) this.subscriber.disconnect();
    this.subscriber = null;
  }

  private async readOnce(): Promise<void> {
    const { db } = this.database;
    const now = Date.now();
    const retentionMs = this.options.retentionMs ?? DEFAULT_RETENTION_MS;
    if (now - this.lastReadAt > retentionMs / 2) {
      // Entries this instance never saw may be pruned already: start over from the end of the log.
      this.highest = await lastChangeId(db);
      this.gaps.clear();
      this.lastReadAt = Date.now();
      await this.deliver('everything');
    }
    const found: LoggedChange[] = [];
    if (this.gaps.size > 0) found.push(...(await changesWithIds(db, [...this.gaps.keys()])));
    for (;;) {
      const rows = await changesAfter(db, this.highest, READ_LIMIT);
      for (const row of rows) this.markApplied(row.id, now);
      found.push(...rows);
      if (rows.length < READ_LIMIT) break;
    }
    for (const row of found) this.gaps.delete(row.id);
    for (const [id, since] of this.gaps) if (now - since > GAP_WAIT_MS) this.gaps.delete(id);
    this.lastReadAt = now;
    if (this.failing) this.options.log?.info('change log readable again; caught up');
    this.failing = false;
    if (found.length > 0) await this.deliver(found.map(fromRow).filter((c): c is Change => c !== null));
    if (now >= this.nextPruneAt) {
      this.nextPruneAt = now + PRUNE_EVERY_MS;
      await pruneChanges(db, new Date(now - retentionMs).toISOString());
    }
  }

  private markApplied(id: number, now: number): void {
    this.gaps.delete(id);
    if (id <= this.highest) return;
    for (let missing = this.highest + 1; missing < id && this.gaps.size < MAX_TRACKED_GAPS; missing++) {
      this.gaps.set(missing, now);
    }
    this.highest = id;
  }

  private async deliver(batch: ChangeBatch): Promise<void> {
    await Promise.all(
      [...this.listeners].map(async (listener) => {
        try {
          await listener(batch);
        } catch (error) {
          this.options.log?.warn({ err: errorText(error) }, 'applying changes failed');
        }
      }),
    );
  }

  private announce(): void {
    const { redis, channel } = this.options;
    if (!redis || !channel || redis.status !== 'ready') return; // the poll carries the change anyway
    redis.publish(channel, this.instance).catch(() => undefined);
  }
}

/** The key a cache files a dependency under; equal for equal changes. */
export function changeKey(change: Change): string {
  switch (change.kind) {
    case 'subscription':
      return `sub:${change.token}`;
    case 'url':
      return `url:${change.url}`;
    case 'user':
      return `user:${change.userId}`;
    default:
      return change.kind;
  }
}

function toRow(change: Change): { kind: ChangeKind; subject: string } {
  switch (change.kind) {
    case 'subscription':
      return { kind: change.kind, subject: change.token };
    case 'url':
      return { kind: change.kind, subject: change.url };
    case 'user':
      return { kind: change.kind, subject: String(change.userId) };
    default:
      return { kind: change.kind, subject: '' };
  }
}

function fromRow({ kind, subject }: LoggedChange): Change | null {
  switch (kind) {
    case 'subscription':
      return { kind, token: subject };
    case 'url':
      return { kind, url: subject };
    case 'user':
      return { kind, userId: Number(subject) };
    case 'bans':
    case 'whitelist':
    case 'rules':
    case 'templates':
    case 'branding':
      return { kind };
    default:
      return null; // written by a newer version; nothing here depends on it
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
