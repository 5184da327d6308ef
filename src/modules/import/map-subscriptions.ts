// Maps v2hub subscriptions and their sources onto subweave rows: tokens kept, sources re-identified, order and flags kept.
import type { NewSource, NewSubscription } from '../../db/types.js';
import { isTokenShaped } from '../../shared/tokens.js';
import { classifySource, sourceId, type ClassifiedSource } from '../sources/classify.js';
import type { Owners } from './map-accounts.js';
import type { TargetKeys } from './target.store.js';
import type { V2hubData, V2hubSource, V2hubSubscription } from './v2hub.store.js';
import { shortToken, type ImportReport } from './report.js';

export interface MapOptions {
  baseUrl: string;
  /** v2hub's DOMAIN setting: a comment equal to it was its placeholder for "no comment". */
  placeholder: string | null;
  now: string;
}

export interface SubscriptionRows {
  subscriptions: NewSubscription[];
  sources: NewSource[];
  /** External URLs of the valid sources of subscriptions already in the target (a merge). */
  presentUrls: string[];
}

const MAX_NAME = 64;
/** v2hub sent every link with `profile-update-interval: 12`; imported links keep telling clients the same. */
const V2HUB_UPDATE_INTERVAL_HOURS = 12;
const MAX_DEPTH = 3;

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
    const nameKey = `${mapped.user_id} ${mapped.scope} ${mapped.name}`;
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
  for (const [token, list] of groupByToken(data.sources)) {
    if (added.has(token)) sources.push(...mapSources(token, list, report, options, false));
    // Checked the same way, so a re-run reports the same skips, but nothing is written over what is there.
    else if (present.has(token)) {
      const checked = mapSources(token, list, report, options, true);
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
  const name = row.name.trim();
  if (name === '' || [...name].length > MAX_NAME) return `the name is empty or longer than ${MAX_NAME} characters`;
  let providerHash = row.provider_hash;
  if (providerHash !== null && !owners.providers.has(providerHash)) {
    report.note(
      `subscription ${shortToken(row.token)}: its provider was not imported; it becomes one of user ${userId}'s own`,
    );
    providerHash = null;
  }
  const description = row.description?.trim() || null;
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

function groupByToken(rows: V2hubSource[]): Map<string, V2hubSource[]> {
  const groups = new Map<string, V2hubSource[]>();
  for (const row of rows) {
    const group = groups.get(row.subscription_token);
    if (group) group.push(row);
    else groups.set(row.subscription_token, [row]);
  }
  return groups;
}

/** One subscription's sources, already in v2hub's order, renumbered from 0; `present`: already in the target. */
function mapSources(
  token: string,
  rows: V2hubSource[],
  report: ImportReport,
  options: MapOptions,
  present: boolean,
): NewSource[] {
  const seen = new Set<string>();
  const out: NewSource[] = [];
  for (const row of rows) {
    const key = `${shortToken(token)}/${row.id}`;
    const classified = classify(row, token, options.baseUrl);
    if (typeof classified === 'string') {
      report.skip('sources', key, classified);
      continue;
    }
    const id = sourceId(classified.type, classified.identity);
    if (seen.has(id)) {
      report.skip('sources', key, 'the same source appears earlier in the subscription');
      continue;
    }
    seen.add(id);
    const depth = Math.min(Math.max(Math.trunc(row.max_depth), 0), MAX_DEPTH);
    if (present) report.alreadyPresent('sources');
    else report.add('sources');
    if (!present && depth !== row.max_depth)
      report.note(`source ${key}: max_depth ${row.max_depth} imported as ${depth}`);
    const created = row.created_at ?? options.now;
    out.push({
      subscription_token: token,
      id,
      source_type: classified.type,
      data: classified.identity,
      ref_token: classified.refToken ?? null,
      comment: classified.type === 'config' ? comment(row, classified, options.placeholder) : null,
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

/** The source as subweave classifies it, or why it cannot be imported. */
function classify(row: V2hubSource, token: string, baseUrl: string): ClassifiedSource | string {
  if (row.source_type === 'internal_token') {
    const ref = row.internal_token?.trim() ?? '';
    if (!isTokenShaped(ref)) return 'the internal reference is not a subscription token';
    if (ref === token) return 'the subscription references itself';
    // Kept even when the referenced subscription is gone: it shows last_error subscription_deleted, as in v2hub.
    return { type: 'internal_token', identity: ref, comment: null, refToken: ref };
  }
  const text =
    row.source_type === 'config' ? row.config_data : row.source_type === 'external_url' ? row.external_url : null;
  if (text === null) {
    return row.source_type === 'config'
      ? 'its config is missing from proxy_configs'
      : `unknown source_type ${row.source_type} or no value`;
  }
  const result = classifySource(text, baseUrl);
  if (!result.ok) return `not a valid ${row.source_type.replace('_', ' ')}: ${result.reason}`;
  const expected = row.source_type === 'config' ? ['config'] : ['external_url', 'internal_token'];
  if (!expected.includes(result.source.type)) return `not a valid ${row.source_type.replace('_', ' ')}`;
  if (result.source.refToken === token) return 'the subscription references itself';
  return result.source;
}

/** v2hub's comment for this config in this subscription; its placeholder and blanks mean none. */
function comment(row: V2hubSource, classified: ClassifiedSource, placeholder: string | null): string | null {
  if (row.comment === null) return classified.comment;
  const text = row.comment.trim();
  if (text === '') return null;
  if (placeholder !== null && text.toLowerCase() === placeholder.toLowerCase()) return null;
  return text;
}
