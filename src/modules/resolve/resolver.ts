// The resolution rules of docs/api.md (Resolution) as one pure walk that asks for data as it goes, so each rule is unit-testable and a cold GET loads only what it reads.
import type { ParseResult, ProxyNode } from '../../formats/proxy.js';
import { parseShareUri, renderConfig } from '../../formats/share-uri/index.js';
import type { SourceType } from '../sources/classify.js';
import type { ConfigLine } from '../sources/config-form.js';

export interface ResolvableSource {
  type: SourceType;
  /** Config URI; the fetch key (URL and fetch options) of an upstream; the referenced token of a reference. */
  data: string;
  comment: string | null;
  isHidden: boolean;
  maxDepth: number;
  /** A config's served line and parse result as stored; absent: made from `data` and `comment` when emitted. */
  stored?: ConfigLine | null;
}

export interface ResolveLimits {
  maxNestingDepth: number;
  maxResolvedConfigs: number;
}

export interface ResolveInput extends ResolveLimits {
  /** Sources of every reachable subscription, in order_index order; absent = unknown or unavailable. */
  sources: ReadonlyMap<string, readonly ResolvableSource[]>;
  /** Cached config lines of each external URL (with their own #remarks); absent = never fetched. */
  external: ReadonlyMap<string, readonly string[]>;
  /** The transform chain of each subscription that has one (see Need `chain`). */
  chains?: ReadonlyMap<string, Chain>;
}

/** A subscription's transform chain, bound to its limits: the servers it is given, shaped (docs/transforms.md). */
export type Chain = (servers: ProxyNode[]) => ProxyNode[];

/** The cached lines of one URL, and the parse result of the line at an index (absent: the line is parsed). */
export interface UpstreamLines {
  lines: readonly string[];
  parsed?: (index: number) => ParseResult;
}

/**
 * What the walk needs next. `sources`: the sources of one subscription (undefined when unknown or unavailable).
 * `contentKeys`: for each URL with cached lines, a key equal for identical content (its stored hash). `lines`: the
 * cached lines of one URL (UpstreamLines). `chain`: the transform chain of a subscription whose sources were given
 * (undefined when it has none).
 */
export type Need =
  | { kind: 'sources'; token: string; depth: number }
  | { kind: 'chain'; token: string }
  | { kind: 'contentKeys'; urls: string[] }
  | { kind: 'lines'; url: string };

/** Work counters, so tests can assert the bounds below instead of timing them. */
export interface ResolveStats {
  /** (subscription, depth) pairs whose sources were read. */
  expansions: number;
  /** Cached upstream contents read. */
  contentsRead: number;
  /** Upstream lines looked at (emitted or skipped as duplicates). */
  linesRead: number;
}

export interface Resolution {
  lines: string[];
  /** The parse result of each line, in the same order: read from its stored form, or parsed once when asked for. */
  parsed: Array<() => ParseResult>;
  /** Every subscription token and external URL the output depends on (for cache invalidation). */
  tokens: Set<string>;
  urls: Set<string>;
  stats: ResolveStats;
}

/**
 * Upstream lines a resolution may look at, as a multiple of MAX_RESOLVED_CONFIGS. Each URL is read at most once per
 * resolution and each distinct content (by key) at most once, so only many distinct contents whose lines are all
 * duplicates of each other could make a walk read without filling the cap; this budget bounds that case.
 */
export const LINES_READ_FACTOR = 64;

type Walk = Generator<Need, Resolution, unknown>;

/** The identity of a config line: the URI without its #fragment. */
export function lineIdentity(line: string): string {
  const hash = line.indexOf('#');
  return hash === -1 ? line : line.slice(0, hash);
}

/**
 * Bounds: every (subscription, depth) pair is expanded at most once (a second expansion could only repeat lines
 * already seen), so the walk reads at most (reachable subscriptions x (MAX_NESTING_DEPTH + 1)) source lists; it
 * stops once it holds MAX_RESOLVED_CONFIGS lines, and looks at no more than LINES_READ_FACTOR x MAX_RESOLVED_CONFIGS
 * upstream lines in all.
 */
export function* walk(root: string, limits: ResolveLimits): Walk {
  const lines: string[] = [];
  const parsed: Array<() => ParseResult> = [];
  const seen = new Set<string>();
  const tokens = new Set<string>([root]);
  const urls = new Set<string>();
  const readContents = new Set<string>();
  const expanded = new Set<string>();
  const stats: ResolveStats = { expansions: 0, contentsRead: 0, linesRead: 0 };
  const linesBudget = limits.maxResolvedConfigs * LINES_READ_FACTOR;
  const path: string[] = [];
  const full = () => lines.length >= limits.maxResolvedConfigs || stats.linesRead >= linesBudget;

  const emit = (identity: string, line: () => ConfigLine): void => {
    if (!seen.has(identity)) {
      seen.add(identity);
      const emitted = line();
      lines.push(emitted.line);
      parsed.push(emitted.parsed);
    }
  };

  function* external(url: string, key: string | undefined): Generator<Need, void, unknown> {
    if (urls.has(url)) return; // the same lines again could add nothing
    urls.add(url);
    if (key === undefined || readContents.has(key)) return;
    readContents.add(key);
    stats.contentsRead++;
    const content = (yield { kind: 'lines', url }) as UpstreamLines;
    const { lines: upstream, parsed: stored } = content;
    for (let index = 0; index < upstream.length; index++) {
      if (full()) return;
      stats.linesRead++;
      const line = upstream[index] as string;
      emit(lineIdentity(line), () => ({
        line,
        parsed: stored ? () => stored(index) : () => parseShareUri(line),
      }));
    }
  }

  // Returns when the walk is done with `token`; callers check full() to stop the whole walk.
  function* visit(token: string, depth: number): Generator<Need, void, unknown> {
    const pair = `${depth}\u0000${token}`;
    if (expanded.has(pair)) return;
    expanded.add(pair);
    const sources = (yield { kind: 'sources', token, depth }) as readonly ResolvableSource[] | undefined;
    if (!sources) return;
    stats.expansions++;
    const chain = (yield { kind: 'chain', token }) as Chain | undefined;
    const mark = lines.length;
    const applies = (s: ResolvableSource) => depth <= s.maxDepth && !(depth === 0 && s.isHidden);
    const unread = [
      ...new Set(
        sources.filter((s) => s.type === 'external_url' && applies(s) && !urls.has(s.data)).map((s) => s.data),
      ),
    ];
    const keys =
      unread.length > 0
        ? ((yield { kind: 'contentKeys', urls: unread }) as ReadonlyMap<string, string>)
        : new Map<string, string>();
    path.push(token);
    for (const source of sources) {
      if (full()) break;
      if (!applies(source)) continue;
      if (source.type === 'config') {
        emit(source.data, () => source.stored ?? renderedConfig(source.data, source.comment));
      } else if (source.type === 'external_url') {
        yield* external(source.data, keys.get(source.data));
      } else {
        tokens.add(source.data);
        if (depth + 1 > limits.maxNestingDepth || path.includes(source.data)) continue;
        yield* visit(source.data, depth + 1);
      }
    }
    path.pop();
    if (chain) shape(mark, chain);
  }

  // Replaces what the subscription contributed (lines from `mark` on) by its chain's servers. A line no format can
  // read is not a server and does not pass a chain. Lines the chain dropped may come again from later sources.
  function shape(mark: number, chain: Chain): void {
    const given = lines.splice(mark);
    const results = parsed.splice(mark).map((parse) => parse());
    for (const line of given) seen.delete(lineIdentity(line));
    const original = new Map<ProxyNode, string>();
    results.forEach((result, i) => {
      if (result.ok) original.set(result.node, given[i] as string);
    });
    for (const node of chain([...original.keys()])) {
      const line = original.get(node) ?? node.uri;
      const identity = lineIdentity(line);
      if (seen.has(identity)) continue;
      seen.add(identity);
      lines.push(line);
      const result: ParseResult = { ok: true, node };
      parsed.push(() => result);
    }
  }

  yield* visit(root, 0);
  const max = limits.maxResolvedConfigs;
  return { lines: lines.slice(0, max), parsed: parsed.slice(0, max), tokens, urls, stats };
}

function renderedConfig(data: string, comment: string | null): ConfigLine {
  const line = renderConfig(data, comment);
  return { line, parsed: () => parseShareUri(line) };
}

/** Runs the walk over data already in memory (tests, and anything that has the whole graph). */
export function resolve(root: string, input: ResolveInput): Resolution {
  const run = walk(root, input);
  let step = run.next();
  while (!step.done) {
    const need = step.value;
    if (need.kind === 'sources') step = run.next(input.sources.get(need.token));
    else if (need.kind === 'chain') step = run.next(input.chains?.get(need.token));
    else if (need.kind === 'lines') step = run.next({ lines: input.external.get(need.url) ?? [] });
    else step = run.next(new Map(need.urls.filter((url) => input.external.has(url)).map((url) => [url, url])));
  }
  return step.value;
}

/** Runs the walk, answering each need through `answer` (the database driver). */
export async function resolveWith(
  root: string,
  limits: ResolveLimits,
  answer: (need: Need) => Promise<unknown>,
): Promise<Resolution> {
  const run = walk(root, limits);
  let step = run.next();
  while (!step.done) step = run.next(await answer(step.value));
  return step.value;
}
