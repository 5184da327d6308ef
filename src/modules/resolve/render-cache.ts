// Keeps each subscription's resolved output in memory so warm reads do no work, and drops it the moment a dependency changes.
import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/executor.js';
import { changeKey, type Change, type ChangeLog } from '../../changes/change-log.js';
import {
  findServable,
  resolveFromDatabase,
  storeConfigForms,
  upstreamUserinfo,
  type ServedSubscription,
} from './resolve.store.js';
import { linkUsage, profileHeaders } from './link-profile.js';
import type { Chain } from './resolver.js';
import type { Userinfo } from '../../shared/userinfo.js';
import type { Format, FormatVariant } from '../../formats/formats.js';
import type { ParseResult, ProxyNode, Skipped } from '../../formats/proxy.js';
import { renderFormat } from '../../formats/render/index.js';
import type { FormatSettings } from '../formats/format-settings.js';
import { formsFor, type CompressedForms } from './compression.js';

export interface RenderedBody {
  /** Encoded once, so warm requests write bytes without re-encoding. */
  body: Buffer;
  etag: string;
  /** Servers in the body. */
  served: number;
  /** Lines the format could not express, with why. */
  skipped: Skipped[];
  /** Its brotli and gzip forms, made on demand; null for a body under 1 KiB (compression.ts). */
  forms: CompressedForms | null;
}

export interface ResolvedSubscription {
  subscription: ServedSubscription;
  lines: string[];
  /** Traffic and expiry per the subscription's userinfo setting, or null. */
  usage: Userinfo | null;
  /** The profile headers of every answer (title, interval, links, announce, usage); the ETags cover them. */
  profile: Readonly<Record<string, string>>;
  /** `variant` must belong to `format` (formats.ts FORMAT_VARIANTS). */
  render(format: Format, variant?: FormatVariant): RenderedBody;
  /** Counts bytes kept alongside this resolution (the link page and its forms) against the cache's budget. */
  keep(bytes: number): void;
}

interface Entry {
  /** The token as the first request that resolved it spelled it: the entry's key. */
  token: string;
  value: ResolvedSubscription;
  /** The `moves` count when the entry last moved to the most recently used end. */
  movedAt: number;
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
  /** Moves to the most recently used end so far: an entry moved fewer than size/4 moves ago is still in the newest quarter. */
  private moves = 0;
  /** Reads answered from memory, and reads that resolved (or joined a resolution): plain counts, read by metrics. */
  hits = 0;
  misses = 0;

  constructor(
    private readonly db: Executor,
    private readonly config: Config,
    changes: ChangeLog,
    private readonly formats: FormatSettings,
    private readonly budgetBytes = DEFAULT_BUDGET_BYTES,
  ) {
    changes.subscribe((batch) => {
      if (batch === 'everything') this.clear();
      else for (const change of batch) this.invalidate(change);
    });
  }

  /** The resolved subscription, or null when the token is unknown or its owner inactive. */
  get(token: string): Promise<ResolvedSubscription | null> {
    const cached = this.peek(token);
    if (cached) return Promise.resolve(cached);
    this.misses++;
    const shared = this.inFlight.get(token);
    if (shared) return shared;
    const pending: Promise<ResolvedSubscription | null> = this.compute(token).finally(() => {
      if (this.inFlight.get(token) === pending) this.inFlight.delete(token);
    });
    this.inFlight.set(token, pending);
    return pending;
  }

  /** The cached resolution of `token`, without waiting: undefined when it must be computed (use get). */
  peek(token: string): ResolvedSubscription | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.hits++;
    // A hot entry is not moved on every read: it cannot be near eviction while in the newest quarter.
    if (this.moves - entry.movedAt > this.entries.size >> 2) {
      this.entries.delete(token);
      this.entries.set(token, entry); // most recently used last
      entry.movedAt = ++this.moves;
    }
    return entry.value;
  }

  /** Whether `token` is cached, without reading it (no hit counted, no recency). */
  has(token: string): boolean {
    return this.entries.has(token);
  }

  /**
   * The cached token's own string (undefined: not cached). A request's token is a fresh string cut from its URL, and
   * each map look-up of one compares all its characters; the kept one is found by identity in this cache and in the
   * request history.
   */
  keptToken(token: string): string | undefined {
    return this.entries.get(token)?.token;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The estimated bytes the entries hold (lines and rendered bodies), which the budget bounds. */
  get byteSize(): number {
    return this.bytes;
  }

  /**
   * The subscription resolved now with `chain` in place of its own (null: none), not cached (the preview of an unsaved
   * chain); null when the token is unknown or its owner inactive.
   */
  async withChain(token: string, chain: Chain | null): Promise<ResolvedSubscription | null> {
    return (await this.resolveNow(token, chain))?.value ?? null;
  }

  private async compute(token: string): Promise<ResolvedSubscription | null> {
    const startedAt = this.epoch;
    const resolved = await this.resolveNow(token);
    if (!resolved) return null;
    const { value, resolution } = resolved;
    if (this.epoch === startedAt) {
      this.store(token, {
        token,
        value,
        movedAt: 0,
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

  private async resolveNow(token: string, rootChain?: Chain | null) {
    const subscription = await findServable(this.db, token);
    if (!subscription) return null;
    const limits = { maxNestingDepth: this.config.maxNestingDepth, maxResolvedConfigs: this.config.maxResolvedConfigs };
    const resolution = await resolveFromDatabase(this.db, subscription, limits, rootChain);
    if (resolution.upgrades.length > 0) storeConfigForms(this.db, resolution.upgrades).catch(() => undefined);
    const { mode, fixed } = subscription.userinfo;
    const carried = mode === 'first' || mode === 'sum' ? await upstreamUserinfo(this.db, [...resolution.urls]) : [];
    const usage = linkUsage(mode, fixed, carried);
    // Bodies and their forms are made after the entry is stored, some asynchronously: they count toward this
    // entry only while it is still the one cached for the token.
    const grow = rootChain !== undefined ? () => undefined : (bytes: number) => this.grow(token, value, bytes);
    const value: ResolvedSubscription = resolvedSubscription(subscription, resolution, usage, this.formats, grow);
    return { value, resolution };
  }

  private store(token: string, entry: Entry): void {
    this.remove(token);
    this.entries.set(token, entry);
    entry.movedAt = ++this.moves;
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

  /** Counts a newly rendered body (or a compressed form of one) against the budget of its entry. */
  private grow(token: string, value: ResolvedSubscription, bytes: number): void {
    const entry = this.entries.get(token);
    if (entry?.value !== value) return;
    entry.bytes += bytes;
    this.bytes += bytes;
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

/**
 * Bodies and ETags are rendered lazily per format and kept with the entry until the format settings change; so are
 * their compressed forms, counted when they are made (unless the settings changed meanwhile).
 */
function resolvedSubscription(
  subscription: ServedSubscription,
  { lines, parsed: parsers }: { lines: string[]; parsed: Array<() => ParseResult> },
  usage: Userinfo | null,
  formats: FormatSettings,
  grow: (bytes: number) => void,
): ResolvedSubscription {
  const profile = profileHeaders(subscription, usage);
  // A change of headers alone (settings, usage, name) must not be answered 304: clients keep what came with a 304.
  const salt = JSON.stringify([subscription.name, profile]);
  let rendered = new Map<Format | FormatVariant, RenderedBody>();
  let renderedVersion = formats.version;
  let renderedBytes = 0;
  let parsed: { nodes: ProxyNode[]; unparsed: Skipped[] } | null = null;
  return {
    subscription,
    lines,
    usage,
    profile,
    render(format, variant) {
      if (renderedVersion !== formats.version) {
        rendered = new Map();
        renderedVersion = formats.version;
        grow(-renderedBytes);
        renderedBytes = 0;
      }
      let body = rendered.get(variant ?? format);
      if (!body) {
        const made = renderBody(format, variant, lines, () => (parsed ??= parsedLines(lines, parsers)), formats, salt);
        const kept = rendered;
        made.forms = formsFor(made.body, made.etag, (bytes) => {
          if (rendered !== kept) return;
          renderedBytes += bytes;
          grow(bytes);
        });
        rendered.set(variant ?? format, (body = made));
        renderedBytes += body.body.length;
        grow(body.body.length);
      }
      return body;
    },
    keep: grow,
  };
}

/** The lines' parse results, each read (or parsed) once per resolution and shared by every format. */
function parsedLines(lines: string[], parsers: Array<() => ParseResult>): { nodes: ProxyNode[]; unparsed: Skipped[] } {
  const nodes: ProxyNode[] = [];
  const unparsed: Skipped[] = [];
  parsers.forEach((parse, i) => {
    const result = parse();
    if (result.ok) nodes.push(result.node);
    else unparsed.push({ data: lines[i] as string, reason: result.reason });
  });
  return { nodes, unparsed };
}

function renderBody(
  format: Format,
  variant: FormatVariant | undefined,
  lines: string[],
  parse: () => { nodes: ProxyNode[]; unparsed: Skipped[] },
  formats: FormatSettings,
  salt: string,
): RenderedBody {
  const withEtag = (body: Buffer, served: number, skipped: Skipped[]): RenderedBody => ({
    body,
    etag: etagOf(body, salt),
    served,
    skipped,
    forms: null,
  });
  if (format === 'plain' || format === 'base64') {
    const plain = Buffer.from(lines.join('\n'), 'utf8');
    return withEtag(format === 'plain' ? plain : Buffer.from(plain.toString('base64'), 'ascii'), lines.length, []);
  }
  const parsed = parse();
  const template = format === 'sip008' ? undefined : formats.template(format);
  const options = { variant, xrayAllowInsecure: formats.options.xray_allow_insecure };
  const document = renderFormat(format, parsed.nodes, template, options);
  return withEtag(Buffer.from(document.body, 'utf8'), parsed.nodes.length - document.skipped.length, [
    ...parsed.unparsed,
    ...document.skipped,
  ]);
}

/** A strong ETag: the start of the SHA-256 of the body and of what else the answer carries (`salt`). */
export function etagOf(body: Buffer, salt = ''): string {
  const hash = createHash('sha256').update(body);
  if (salt !== '') hash.update('\u0000').update(salt);
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}
