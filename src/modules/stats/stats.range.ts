// Turns the stats query (period, start_date, end_date) into a UTC time range by the rules of docs/api.md (Statistics).
import { HOUR_MS } from './request-counter.js';
import { errors } from '../../http/errors.js';

export type StatsPeriod = 'day' | 'week' | 'month';

export interface StatsQuery {
  period?: StatsPeriod;
  start_date?: string;
  end_date?: string;
}

/** `start: null` means "open: from the first recorded activity", which only the database knows. */
export interface RequestedRange {
  start: Date | null;
  end: Date;
}

export const PERIOD_MS: Record<StatsPeriod, number> = {
  day: 24 * HOUR_MS,
  week: 7 * 24 * HOUR_MS,
  month: 30 * 24 * HOUR_MS,
};
export const DEFAULT_PERIOD: StatsPeriod = 'week';

/**
 * ISO 8601 extended format: a date, optionally a time (minutes, seconds, fraction) and a zone (`Z` or an offset).
 * A missing zone means UTC. Like RFC 3339, a space may separate date and time. A space before the offset stands for
 * `+` (an unencoded `+` in a query string decodes to a space).
 */
export const ISO_DATE_PATTERN =
  '^(\\d{4})-(\\d{2})-(\\d{2})(?:[Tt ](\\d{2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?([Zz]|[+\\- ]\\d{2}(?::?\\d{2})?)?)?$';
const ISO_DATE = new RegExp(ISO_DATE_PATTERN);

/** Parses an ISO 8601 date or date-time into a Date, or null when the text is not one (including impossible dates). */
export function parseIsoDate(text: string): Date | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const part = (index: number) => Number(match[index] ?? 0);
  const [year, month, day, hour, minute, second] = [part(1), part(2), part(3), part(4), part(5), part(6)];
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = parseOffset(match[8]);
  if (offsetMinutes === null) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return new Date(date.getTime() - offsetMinutes * 60_000);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function parseOffset(zone: string | undefined): number | null {
  if (!zone || zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return null;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** Applies the range rules; every refusal is a 400 `validation_failed` naming the query field. */
export function resolveRange(query: StatsQuery, now: Date): RequestedRange {
  const { period, start_date: startText, end_date: endText } = query;
  if (period !== undefined && (startText !== undefined || endText !== undefined)) {
    const field = startText !== undefined ? 'start_date' : 'end_date';
    throw invalid('querystring.period', `period cannot be combined with ${field}: choose a period or a date range.`);
  }
  if (startText === undefined && endText === undefined) {
    return { start: new Date(now.getTime() - PERIOD_MS[period ?? DEFAULT_PERIOD]), end: now };
  }
  const start = startText === undefined ? null : parseField('start_date', startText);
  const end = endText === undefined ? now : parseField('end_date', endText);
  if (start && start.getTime() > end.getTime()) {
    const endLabel = endText === undefined ? 'now' : 'end_date';
    throw invalid('querystring.start_date', `start_date is after ${endLabel}.`);
  }
  return { start, end };
}

function parseField(field: 'start_date' | 'end_date', text: string): Date {
  const date = parseIsoDate(text);
  if (!date) throw invalid(`querystring.${field}`, 'must be an ISO 8601 date or date-time, e.g. 2024-06-01T00:00:00Z.');
  return date;
}

function invalid(path: string, message: string) {
  return errors.validation('The stats range is invalid.', [{ path, message }]);
}
