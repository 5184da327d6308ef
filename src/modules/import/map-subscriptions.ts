// Maps v2hub subscriptions and their sources onto subweave rows: tokens kept, sources re-identified, order and flags kept.
import type { NewSource, NewSubscription } from '../../db/types.js';
import { AppError } from '../../http/errors.js';
import { isTokenShaped } from '../../shared/tokens.js';
import { classifySource } from '../sources/classify.js';
import { prepareSources, type PreparedSource } from '../sources/source-input.js';
import { MAX_NAME_LENGTH } from '../subscriptions/subscription-names.js';
import {
  MAX_COMMENT_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_SOURCE_DEPTH,
} from '../subscriptions/subscriptions.schemas.js';
import { fitText } from './field-rules.js';
import type { Owners } from './map-accounts.js';
import { ReferenceGraph } from './reference-graph.js';
import type { TargetKeys } from './target.store.js';
import type { V2hubData, V2hubSource, V2hubSubscription } from './v2hub.store.js';
import { shortToken, type ImportReport } from './report.js';

export interface MapOptions {
  baseUrl: string;
  /** v2hub's DOMAIN setting: a comment equal to it was its placeholder for "no comment". */
  placeholder: string | null;
  now: string;
  /** MAX_SOURCES_PER_SUBSCRIPTION and MAX_NESTING_DEPTH of the target. */
  maxSources: number;
  maxNesting: number;
  /** Hosts of external URLs the API would refuse (private addresses), with why; see public-hosts.ts. */
  refusedHosts: ReadonlyMap<string, string>;
}

export interface SubscriptionRows {
  subscriptions: NewSubscription[];
  sources: NewSource[];
  /** External URLs of the valid sources of subscriptions already in the target (a merge). */
  presentUrls: string[];
}

/** v2hub sent every link with `profile-update-interval: 12`; imported links keep telling clients the same. */
const V2HUB_UPDATE_INTERVAL_HOURS = 12;

export function mapSubscriptions(
  data: V2hubData,
  target: TargetKeys,
  owners: Owners,
  report: ImportReport,
  options: MapOptions,
): SubscriptionRows {
  const tokens = new Set(target.subscriptions.map((s) => s.token));
  const names = new Set(target.subscriptions.map((s) => `${s.user_id} ${s.scope} ${s.name}`));
  const subscriptions: NewSubscription[] = [];
  for (const row of data.subscriptions) {
    const key = shortToken(row.token);
    if (tokens.has(row.token)) {
      report.alreadyPresent('subscriptions');
      continue;
    }
    const mapped = mapSubscription(row, owners, report, options.now);
    if (typeof mapped === 'string') {
      report.skip('subscriptions', key, mapped);
      continue;
    }
    let nameKey = `${mapped.user_id} ${mapped.scope} ${mapped.name}`;
    // A name the rules changed may now equal another one of the scope: it gets a number, as a person would add one.
    if (names.has(nameKey) && mapped.name !== row.name.trim()) {
      const name = numberedName(mapped.name, (n) => names.has(`${mapped.user_id} ${mapped.scope} ${n}`));
      report.change('subscriptions', key, `name "${mapped.name}" taken; imported as "${name}"`, 'names are unique');
      mapped.name = name;
      nameKey = `${mapped.user_id} ${mapped.scope} ${name}`;
    }
    if (names.has(nameKey)) {
      report.skip('subscriptions', key, 'the user already has a subscription of that name in the same scope');
      continue;
    }
    names.add(nameKey);
    tokens.add(row.token);
    subscriptions.push(mapped);
    report.add('subscriptions');
  }
  const added = new Set(subscriptions.map((s) => s.token));
  const present = new Set(target.subscriptions.map((s) => s.token));
  const sources: NewSource[] = [];
  const presentUrls: string[] = [];
  const graph = new ReferenceGraph(options.maxNesting);
  for (const [token, list] of inImportOrder(groupByToken(data.sources), data.subscriptions)) {
    if (added.has(token)) sources.push(...mapSources(token, list, graph, report, options, false));
    // Checked the same way, so a re-run reports the same skips, but nothing is written over what is there.
    else if (present.has(token)) {
      const checked = mapSources(token, list, graph, report, options, true);
      presentUrls.push(...checked.filter((s) => s.source_type === 'external_url').map((s) => s.data));
    } else
      list.forEach((s) => report.skip('sources', `${shortToken(token)}/${s.id}`, 'its subscription was not imported'));
  }
  return { subscriptions, sources, presentUrls };
}

/** The subscription row, or why it cannot be imported. */
function mapSubscription(
  row: V2hubSubscription,
  owners: Owners,
  report: ImportReport,
  now: string,
): NewSubscription | string {
  if (!isTokenShaped(row.token)) return 'the token is not base64url';
  const userId = owners.userIds.get(row.user_hash);
  if (userId === undefined) return 'its user was not imported';
  const key = shortToken(row.token);
  const name = fitted(row.name, MAX_NAME_LENGTH, report, key, 'name');
  if (name === '') return 'the name is empty';
  let providerHash = row.provider_hash;
  if (providerHash !== null && !owners.providers.has(providerHash)) {
    report.note(
      `subscription ${shortToken(row.token)}: its provider was not imported; it becomes one of user ${userId}'s own`,
    );
    providerHash = null;
  }
  const description =
    row.description === null
      ? null
      : fitted(row.description, MAX_DESCRIPTION_LENGTH, report, key, 'description') || null;
  const created = row.created_at ?? now;
  return {
    token: row.token,
    user_id: userId,
    provider_hash: providerHash,
    scope: providerHash ?? '',
    name,
    description,
    update_interval_hours: V2HUB_UPDATE_INTERVAL_HOURS,
    support_url: null,
    web_page_url: null,
    announce: null,
    userinfo_upload: null,
    userinfo_download: null,
    userinfo_total: null,
    userinfo_expire: null,
    created_at: created,
    updated_at: row.updated_at ?? created,
  };
}

/** The text under the API's rules; each change is reported against `key`. */
function fitted(raw: string, max: number, report: ImportReport, key: string, field: string): string {
  const { text, changes } = fitText(raw, max);
  for (const { what, why } of changes) report.change('subscriptions', key, `${field}: ${what}`, why);
  return text;
}

/** `name (2)`, `name (3)`...: the first that `taken` does not know, cut so that it stays within the API's limit. */
function numberedName(name: string, taken: (name: string) => boolean): string {
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${[...name]
      .slice(0, MAX_NAME_LENGTH - suffix.length)
      .join('')
      .trimEnd()}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/** Source lists in the order subscriptions are imported (oldest first), so "the later reference" is well defined. */
function inImportOrder(
  groups: Map<string, V2hubSource[]>,
  subscriptions: V2hubSubscription[],
): Array<[string, V2hubSource[]]> {
  const first = subscriptions
    .filter((s) => groups.has(s.token))
    .map((s): [string, V2hubSource[]] => [s.token, groups.get(s.token) ?? []]);
  const listed = new Set(first.map(([token]) => token));
  return [...first, ...[...groups].filter(([token]) => !listed.has(token))];
}

function groupByToken(rows: V2hubSource[]): Map<string, V2hubSource[]> {
  const groups = new Map<string, V2hubSource[]>();
  for (const row of rows) {
    const group = groups.get(row.subscription_token);
    if (group) group.push(row);
    else groups.set(row.subscription_token, [row]);
  }
  return groups;
}

/**
 * One subscription's sources, already in v2hub's order, renumbered from 0; `present`: already in the target. Each
 * passes the API's source rules; references also pass `graph` (no cycle, no chain too deep), in import order.
 */
function mapSources(
  token: string,
  rows: V2hubSource[],
  graph: ReferenceGraph,
  report: ImportReport,
  options: MapOptions,
  present: boolean,
): NewSource[] {
  const seen = new Set<string>();
  const out: NewSource[] = [];
  for (const row of rows) {
    const key = `${shortToken(token)}/${row.id}`;
    const prepared = classify(row, token, options);
    if (typeof prepared === 'string') {
      report.skip('sources', key, prepared);
      continue;
    }
    if (seen.has(prepared.id)) {
      report.skip('sources', key, 'the same source appears earlier in the subscription');
      continue;
    }
    if (out.length >= options.maxSources) {
      report.skip(
        'sources',
        key,
        `its subscription already holds MAX_SOURCES_PER_SUBSCRIPTION (${options.maxSources})`,
      );
      continue;
    }
    const refused = prepared.refToken === null ? null : graph.add(token, prepared.refToken);
    if (refused !== null) {
      report.skip('sources', key, `reference dropped: ${refused}`);
      continue;
    }
    seen.add(prepared.id);
    const depth = Math.min(Math.max(Math.trunc(row.max_depth), 0), MAX_SOURCE_DEPTH);
    if (present) report.alreadyPresent('sources');
    else report.add('sources');
    if (!present && depth !== row.max_depth)
      report.change('sources', key, `max_depth ${row.max_depth} imported as ${depth}`, 'the API accepts 0-3');
    const created = row.created_at ?? options.now;
    out.push({
      subscription_token: token,
      id: prepared.id,
      source_type: prepared.type,
      data: prepared.identity,
      ref_token: prepared.refToken,
      comment: prepared.type === 'config' ? comment(row, key, options, present ? null : report) : null,
      fetch_options: null,
      is_hidden: row.is_hidden ? 1 : 0,
      max_depth: depth,
      order_index: out.length,
      created_at: created,
      updated_at: row.updated_at ?? created,
    });
  }
  return out;
}

/** The source as the API would take it (the same classification and checks), or why the API would refuse it. */
function classify(row: V2hubSource, token: string, options: MapOptions): PreparedSource | string {
  const ref = row.source_type === 'internal_token' ? (row.internal_token?.trim() ?? '') : null;
  if (ref !== null && !isTokenShaped(ref)) return 'the internal reference is not a subscription token';
  // A reference is checked as its link; it is kept even when the subscription is gone (subscription_deleted).
  const text =
    ref !== null
      ? `${options.baseUrl.replace(/\/+$/, '')}/api/v1/sub/${ref}`
      : row.source_type === 'config'
        ? row.config_data
        : row.source_type === 'external_url'
          ? row.external_url
          : null;
  if (text === null) {
    return row.source_type === 'config'
      ? 'its config is missing from proxy_configs'
      : `unknown source_type ${row.source_type} or no value`;
  }
  const kind = row.source_type.replace('_', ' ');
  let prepared: PreparedSource | undefined;
  try {
    // `comment: ""`: the comment is v2hub's own row, fitted below, never a reason to refuse the source.
    [prepared] = prepareSources([{ data: text, comment: '' }], options.baseUrl);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return `not a valid ${kind}: ${String(error.details?.['reason'] ?? error.message)}`;
  }
  if (prepared === undefined) return `not a valid ${kind}`;
  const expected = row.source_type === 'config' ? ['config'] : ['external_url', 'internal_token'];
  if (!expected.includes(prepared.type)) return `not a valid ${kind}`;
  if (prepared.type === 'external_url') {
    const refusal = options.refusedHosts.get(new URL(prepared.identity).hostname);
    if (refusal !== undefined) return `not an acceptable URL: ${refusal}`;
  }
  return prepared;
}

/**
 * v2hub's comment for this config in this subscription (else the one in the URI), under the API's rules; its
 * placeholder and blanks mean none. Changes are reported when `report` is given (a new row).
 */
function comment(row: V2hubSource, key: string, options: MapOptions, report: ImportReport | null): string | null {
  const raw = row.comment ?? (row.config_data === null ? null : classifySource(row.config_data, options.baseUrl));
  const text = typeof raw === 'string' || raw === null ? raw : raw.ok ? raw.source.comment : null;
  if (text === null) return null;
  const { text: fitted, changes } = fitText(text, MAX_COMMENT_LENGTH);
  if (fitted === '') return null;
  if (options.placeholder !== null && fitted.toLowerCase() === options.placeholder.toLowerCase()) return null;
  for (const { what, why } of changes) report?.change('sources', key, `comment: ${what}`, why);
  return fitted;
}
