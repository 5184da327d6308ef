// What an audit entry's summary says in words, for the user's Activity and the admin's audit log alike: the changed
// fields by their labels, sources added, removed or replaced, a connection's status, a provider; numbers in the
// reader's digits.
import type { TFunction } from 'i18next';
import { formatId, formatNumber } from '../i18n/numbers';
import { AUDIT_WORDS } from './strings';

const SUMMARY_KEYS = {
  changed: 'summary.fields',
  sources_added: 'summary.sourcesAdded',
  sources_removed: 'summary.sourcesRemoved',
  sources_replaced: 'summary.sourcesReplaced',
  status: 'summary.status',
  provider_name: 'summary.provider',
} as const;

/** The summary fields `summaryLines` words; a caller showing the rest itself leaves these out. */
export const WORDED_FIELDS: readonly string[] = Object.keys(SUMMARY_KEYS);

/** Summary values that are lists of field names (`changed`, the branding's `fields`): shown by their labels. */
const FIELD_LISTS = new Set(['changed', 'fields']);
/** Summary values that are identifiers: the reader's digits, never grouped like a count. */
const IDS = new Set(['user_id', 'owner_id']);

export interface AuditEntryLike {
  action: string;
  target: string;
  summary: Record<string, unknown>;
}

/** A summary field's name in words (`is_active` is "Active"); a name the wording does not know stays as it is. */
export function fieldLabel(name: string, t: TFunction): string {
  return t(`fields.${name}`, { ns: AUDIT_WORDS, defaultValue: name });
}

/**
 * One summary value in words: field names by their labels, counts and ids in the reader's digits, yes or no, a
 * connection's status in words; other text (names, addresses, event types) as it is.
 */
export function summaryValue(field: string, value: unknown, t: TFunction, language: string): string {
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      FIELD_LISTS.has(field) && typeof item === 'string' ? fieldLabel(item, t) : summaryValue('', item, t, language),
    );
    return new Intl.ListFormat(language, { type: 'conjunction' }).format(items);
  }
  if (typeof value === 'number') return IDS.has(field) ? formatId(value, language) : formatNumber(value, language);
  if (typeof value === 'boolean') return t(value ? 'values.yes' : 'values.no', { ns: AUDIT_WORDS });
  if (typeof value === 'string') {
    if (field === 'status' || field === 'previous_status') {
      return t(`statuses.${value}`, { ns: AUDIT_WORDS, defaultValue: value });
    }
    return value;
  }
  return JSON.stringify(value);
}

/** The summary's names and counts that mean something to a person (ids are left out; a connection names its provider). */
export function summaryLines(entry: AuditEntryLike, t: TFunction, language: string): string[] {
  const lines: string[] = [];
  for (const [field, key] of Object.entries(SUMMARY_KEYS)) {
    const value = entry.summary[field];
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (field === 'provider_name' && entry.target.startsWith('connection:')) continue;
    lines.push(t(key, { ns: AUDIT_WORDS, value: summaryValue(field, value, t, language) }));
  }
  return lines;
}

/** An action in words from the shared catalog or the caller's own (`ns` first), else its code. */
export function actionWords(action: string, t: TFunction, ns: string): string {
  return t(`actions.${action}`, { ns: [ns, AUDIT_WORDS], defaultValue: action });
}
