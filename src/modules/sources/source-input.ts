// Turns the sources a client sends into validated, de-duplicated rows-to-be, enforcing the rules of docs/api.md (Sources).
import { errors } from '../../http/errors.js';
import type { Executor } from '../../db/executor.js';
import type { NewSource } from '../../db/types.js';
import { MAX_COMMENT_LENGTH, type SourceInput } from '../subscriptions/subscriptions.schemas.js';
import { checkPublicHost } from '../../net/ssrf.js';
import { classifySource, copiedLinkToken, sourceId, type ClassifyResult, type SourceType } from './classify.js';
import { referencesFrom } from './sources.store.js';
import { canonicalFetchOptions, fetchKey, headerProblems, type FetchOptionsInput } from '../fetch/fetch-options.js';
import { existingTokens } from '../subscriptions/subscriptions.store.js';

export interface PreparedSource {
  /** Position of the item in the request, for error details. */
  index: number;
  id: string;
  type: SourceType;
  identity: string;
  comment: string | null;
  /** External URLs: the canonical fetch options, or null for none. */
  fetchOptions: string | null;
  refToken: string | null;
  isHidden: boolean;
  maxDepth: number;
}

/** Tokens of links to this service copied from other addresses: whether each exists decides its classification. */
export function copiedLinkTokens(inputs: SourceInput[], baseUrl: string): string[] {
  const tokens = inputs.map((input) => copiedLinkToken(typeof input === 'string' ? input : input.data, baseUrl));
  return [...new Set(tokens.filter((token): token is string => token !== null))];
}

/**
 * Classifies every item and keeps the first occurrence of each source id; throws on the first invalid item.
 * `knownTokens`: which of `copiedLinkTokens(inputs)` exist.
 */
export function prepareSources(
  inputs: SourceInput[],
  baseUrl: string,
  knownTokens: ReadonlySet<string> = new Set(),
): PreparedSource[] {
  const seen = new Set<string>();
  const prepared: PreparedSource[] = [];
  inputs.forEach((input, index) => {
    const item = typeof input === 'string' ? { data: input } : input;
    const result = CONTROL_CHARACTER.test(item.data.trim())
      ? controlCharacterVerdict(item.data)
      : classifySource(item.data, baseUrl, knownTokens);
    if (!result.ok) {
      const details = { index, data: item.data.slice(0, 200), reason: result.reason };
      throw result.code === 'invalid_url'
        ? errors.invalidUrl(`Source ${index} is not an acceptable URL: ${result.reason}`, details)
        : errors.invalidSource(`Source ${index} is not a valid source: ${result.reason}`, details);
    }
    const { source } = result;
    const comment = chosenComment(source.type, source.comment, item.comment, index);
    const fetchOptions = checkedFetchOptions(source.type, item.fetch, index);
    // Options change what an upstream answers, so the same URL with other options is another source.
    const id = sourceId(
      source.type,
      source.type === 'external_url' ? fetchKey(source.identity, fetchOptions) : source.identity,
    );
    if (seen.has(id)) return;
    seen.add(id);
    prepared.push({
      index,
      id,
      type: source.type,
      identity: source.identity,
      comment,
      fetchOptions,
      refToken: source.refToken ?? null,
      isHidden: item.is_hidden ?? false,
      maxDepth: item.max_depth ?? 3,
    });
  });
  return prepared;
}

/** C0 and C1 control characters, tab and DEL included: never part of a source, and URL parsers silently drop some. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/** A source holding a control character inside it: invalid_url when it is an http(s) URL, else invalid_source. */
function controlCharacterVerdict(data: string): ClassifyResult {
  const reason = 'contains a control character';
  return /^\s*https?:/i.test(data)
    ? { ok: false, code: 'invalid_url', reason }
    : { ok: false, code: 'invalid_source', reason };
}

/**
 * The comment to store: an explicit `comment` wins over the one found in `data` (`#` fragment or vmess `ps`); `""`
 * means none, null or omitted means the one in `data`. A non-empty explicit comment on a non-config is refused.
 */
function chosenComment(
  type: SourceType,
  fromData: string | null,
  explicit: string | null | undefined,
  index: number,
): string | null {
  const given = explicit === undefined || explicit === null ? undefined : explicit.trim();
  if (given !== undefined && given !== '' && type !== 'config') throw errors.commentNotApplicable(type, index);
  const comment = given === undefined ? fromData : given || null;
  const problem = comment === null ? null : commentIssue(comment);
  if (problem) {
    const field = given === undefined ? 'data' : 'comment';
    throw errors.validation(`Source ${index} has an invalid comment: ${problem}.`, [
      { path: `body.sources.${index}.${field}`, message: `comment ${problem}` },
    ]);
  }
  return comment;
}

/** The canonical fetch options of an item; the schema checked the shapes, this the rules across fields. */
function checkedFetchOptions(
  type: SourceType,
  input: FetchOptionsInput | null | undefined,
  index: number,
): string | null {
  const path = `body.sources.${index}.fetch`;
  const problems = headerProblems(input?.headers ?? {});
  if (problems.length > 0) {
    throw errors.validation(
      `Source ${index} has headers that cannot be sent: ${problems.map((p) => p.problem).join('; ')}.`,
      problems.map(({ name, problem }) => ({ path: `${path}.headers.${name}`, message: problem })),
    );
  }
  const options = canonicalFetchOptions(input);
  if (options !== null && type !== 'external_url') {
    throw errors.validation(`Source ${index}: fetch options apply to external URLs only, not ${type}.`, [
      { path, message: `applies to external URLs only, not ${type}` },
    ]);
  }
  return options;
}

/** Why a decoded comment cannot be stored, or null when it is fine. */
function commentIssue(comment: string): string | null {
  if ([...comment].length > MAX_COMMENT_LENGTH) return `must be at most ${MAX_COMMENT_LENGTH} characters`;
  // Percent-decoding can produce control characters (%00, %0A) that no client shows and PostgreSQL cannot store.
  if (CONTROL_CHARACTER.test(comment)) return 'must not contain control characters';
  return null;
}

/** Refuses external URLs whose host is or resolves to an internal address (unless private fetching is allowed). */
export async function checkExternalHosts(sources: PreparedSource[], allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const checks = sources
    .filter((s) => s.type === 'external_url')
    .map(async (s) => ({ source: s, verdict: await checkPublicHost(new URL(s.identity).hostname) }));
  for (const { source, verdict } of await Promise.all(checks)) {
    if (!verdict.ok) {
      throw errors.invalidUrl(`Source ${source.index} points to a forbidden address: ${verdict.reason}`, {
        index: source.index,
        data: source.identity,
        reason: verdict.reason,
      });
    }
  }
}

/**
 * Checks that internal references exist and that adding them to `holder` creates no cycle and no chain deeper
 * than `maxNesting` below it. The existing graph is acyclic (every add is checked), so walking it terminates.
 * References whose id is in `held` (already in the holder's list) may point to a deleted subscription.
 */
export async function checkReferences(
  db: Executor,
  holder: string,
  sources: PreparedSource[],
  maxNesting: number,
  held: ReadonlySet<string> = new Set(),
): Promise<void> {
  const refs = sources.filter((s) => s.refToken !== null);
  if (refs.length === 0) return;
  const found = await existingTokens(
    db,
    refs.map((s) => s.refToken as string),
  );
  for (const ref of refs) {
    if (!found.has(ref.refToken as string) && !held.has(ref.id)) {
      throw errors.invalidSource(`Source ${ref.index} references a subscription that does not exist.`, {
        index: ref.index,
        reason: 'referenced subscription not found',
      });
    }
  }

  // Level-by-level walk without a global visited set: level L is non-empty iff a chain of length L exists.
  let frontier = new Map<string, string[]>(refs.map((s) => [s.refToken as string, [holder, s.refToken as string]]));
  for (let level = 1; frontier.size > 0; level++) {
    for (const [token, chain] of frontier) {
      if (token === holder) throw errors.circularReference(chain);
    }
    if (level > maxNesting) throw errors.nestingTooDeep(level, maxNesting);
    const next = new Map<string, string[]>();
    for (const row of await referencesFrom(db, [...frontier.keys()])) {
      const child = row.ref_token;
      if (child === null || next.has(child)) continue;
      next.set(child, [...(frontier.get(row.subscription_token) ?? []), child]);
    }
    frontier = next;
  }
}

/** Rows for prepared sources, numbered from `firstIndex` in request order. */
export function toRows(token: string, sources: PreparedSource[], firstIndex: number, now: string): NewSource[] {
  return sources.map((s, offset) => ({
    subscription_token: token,
    id: s.id,
    source_type: s.type,
    data: s.identity,
    ref_token: s.refToken,
    comment: s.type === 'config' ? s.comment : null,
    fetch_options: s.fetchOptions,
    is_hidden: s.isHidden ? 1 : 0,
    max_depth: s.maxDepth,
    order_index: firstIndex + offset,
    created_at: now,
    updated_at: now,
  }));
}
