// What an audit entry's summary says in words, for the user's Activity and the admin's audit log alike: the changed
// field names, sources added, removed or replaced, a connection's status, a provider.
import type { TFunction } from 'i18next';
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

export interface AuditEntryLike {
  action: string;
  target: string;
  summary: Record<string, unknown>;
}

/** The summary's names and counts that mean something to a person (ids are left out; a connection names its provider). */
export function summaryLines(entry: AuditEntryLike, t: TFunction): string[] {
  const lines: string[] = [];
  for (const [field, key] of Object.entries(SUMMARY_KEYS)) {
    const value = entry.summary[field];
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (field === 'provider_name' && entry.target.startsWith('connection:')) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    lines.push(t(key, { ns: AUDIT_WORDS, value: text }));
  }
  return lines;
}

/** An action in words from the shared catalog or the caller's own (`ns` first), else its code. */
export function actionWords(action: string, t: TFunction, ns: string): string {
  return t(`actions.${action}`, { ns: [ns, AUDIT_WORDS], defaultValue: action });
}
