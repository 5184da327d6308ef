// Keeps each subscription's resolved output in memory so warm reads do no work, and drops it the moment a dependency changes.
import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/executor.js';
import { changeKey, type Change, type ChangeLog } from '../../changes/change-log.js';
import { findServable, resolveFromDatabase, type ServedSubscription } from './resolve.store.js';
import { encodeComment } from '../sources/proxy-uri.js';

export type OutputFormat = 'base64' | 'plain';

export interface RenderedBody {
  /** Encoded once, so warm requests write bytes without re-encoding. */
  body: Buffer;
  etag: string;
}

export interface ResolvedSubscription {
  subscription: ServedSubscription;
  lines: string[];
  /** Response headers of the public link except the ETag, computed once per entry. */
  headers: Record<string, string>;
  render(format: OutputFormat): RenderedBody;
}

interface Entry {
  value: ResolvedSubscription;
  dependencies: string[];
  bytes: number;
}

const DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024;

export class RenderCache {
  private readonly entries = new Map<string, Entry>();
  /** dependency key -> tokens of cached entries that depend on it. */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly inFlight = new Map<string, Promise<ResolvedSubscription | null>>();
  /** Bumped on every change; a resolution that started before a change is returned but not cached. */
  private epoch = 0;
  private bytes = 0;

  constructor(
    private readonly db: Executor,
    private readonly config: Config,
    changes: ChangeLog,
    private readonly budgetBytes = DEFAULT_BUDGET_BYTES,
  ) {
    changes.subscribe((batch) => {
      if (batch === 'everything') this.clear();
      else for (const change of batch) this.invalidate(change);
    });
  }

  /** The resolved subscription, or null when the token is unknown or its owner inactive. */
  get(token: string): Promise<ResolvedSubscription | null> {
    const entry = this.entries.get(token);
    if (entry) {
      this.entries.delete(token);
      this.entries.set(token, entry); // most recently used last
      return Promise.resolve(entry.value);
    }
    const shared = this.inFlight.get(token);
    if (shared) return shared;
    const pending: Promise<ResolvedSubscription | null> = this.compute(token).finally(() => {
      if (this.inFlight.get(token) === pending) this.inFlight.delete(token);
    });
    this.inFlight.set(token, pending);
    return pending;
  }

  get size(): number {
    return this.entries.size;
  }

  private async compute(token: string): Promise<ResolvedSubscription | null> {
    const startedAt = this.epoch;
    const subscription = await findServable(this.db, token);
    if (!subscription) return null;
    const resolution = await resolveFromDatabase(this.db, subscription, {
      maxNestingDepth: this.config.maxNestingDepth,
      maxResolvedConfigs: this.config.maxResolvedConfigs,
    });
    const value = resolvedSubscription(subscription, resolution.lines);
    if (this.epoch === startedAt) {
      this.store(token, {
        value,
        bytes: resolution.lines.reduce((sum, line) => sum + line.length * 3, 256),
        dependencies: [
          ...[...resolution.tokens].map((t) => changeKey({ kind: 'subscription', token: t })),
          ...[...resolution.urls].map((url) => changeKey({ kind: 'url', url })),
          ...[...resolution.owners].map((userId) => changeKey({ kind: 'user', userId })),
        ],
      });
    }
    return value;
  }

  private store(token: string, entry: Entry): void {
    this.remove(token);
    this.entries.set(token, entry);
    this.bytes += entry.bytes;
    for (const key of entry.dependencies) {
      let tokens = this.dependents.get(key);
      if (!tokens) this.dependents.set(key, (tokens = new Set()));
      tokens.add(token);
    }
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.budgetBytes || oldest === token) break;
      this.remove(oldest);
    }
  }

  private invalidate(change: Change): void {
    this.epoch++;
    // A resolution already running may have read the old data: later readers must start their own.
    this.inFlight.clear();
    const key = changeKey(change);
    for (const token of this.dependents.get(key) ?? []) this.remove(token);
    this.dependents.delete(key);
  }

  private clear(): void {
    this.epoch++;
    this.inFlight.clear();
    this.entries.clear();
    this.dependents.clear();
    this.bytes = 0;
  }

  private remove(token: string): void {
    const entry = this.entries.get(token);
    if (!entry) return;
    this.entries.delete(token);
    this.bytes -= entry.bytes;
    for (const key of entry.dependencies) {
      const tokens = this.dependents.get(key);
      tokens?.delete(token);
      if (tokens?.size === 0) this.dependents.delete(key);
    }
  }
}

/** Bodies and ETags are rendered lazily per format and then kept with the entry. */
function resolvedSubscription(subscription: ServedSubscription, lines: string[]): ResolvedSubscription {
  const rendered = new Map<OutputFormat, RenderedBody>();
  return {
    subscription,
    lines,
    headers: linkHeaders(subscription),
    render(format) {
      let body = rendered.get(format);
      if (!body) {
        const plain = Buffer.from(lines.join('\n'), 'utf8');
        const bytes = format === 'plain' ? plain : Buffer.from(plain.toString('base64'), 'ascii');
        body = { body: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"` };
        rendered.set(format, body);
      }
      return body;
    },
  };
}

function linkHeaders({ name, description }: ServedSubscription): Record<string, string> {
  const asciiName = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'profile-title': `base64:${Buffer.from(description || name, 'utf8').toString('base64')}`,
    'profile-update-interval': '1',
    'content-disposition': `attachment; filename="${asciiName}.txt"; filename*=UTF-8''${encodeComment(name)}.txt`,
    'cache-control': 'private, no-cache',
  };
}
