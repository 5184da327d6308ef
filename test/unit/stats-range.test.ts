// Unit tests of the stats range rules and the ISO 8601 parser, with a fixed clock.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { parseIsoDate, resolveRange, type StatsQuery } from '../../src/modules/stats/stats.range.js';

const NOW = new Date('2025-03-10T12:34:56.789Z');
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('parseIsoDate', () => {
  it.each([
    ['2024-06-01', '2024-06-01T00:00:00.000Z'],
    ['2024-06-01T12:00', '2024-06-01T12:00:00.000Z'],
    ['2024-06-01T12:00:30Z', '2024-06-01T12:00:30.000Z'],
    ['2024-06-01t12:00:30z', '2024-06-01T12:00:30.000Z'],
    ['2024-06-01T12:00:30.5Z', '2024-06-01T12:00:30.500Z'],
    ['2024-06-01T12:00:30,25+01:00', '2024-06-01T11:00:30.250Z'],
    ['2024-06-01T00:30:00+0100', '2024-05-31T23:30:00.000Z'],
    ['2024-06-01T00:30:00-01', '2024-06-01T01:30:00.000Z'],
    ['2024-06-01T00:30:00 01:00', '2024-05-31T23:30:00.000Z'],
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['2024-06-01 12:00:30 02:00', '2024-06-01T10:00:30.000Z'],
  ])('parses %s as %s', (text, expected) => {
    expect(iso(parseIsoDate(text))).toBe(expected);
  });

  it.each([
    '',
    'now',
    '2024',
    '2024-06',
    '2024-6-1',
    '20240601',
    '2024-06-01T',
    '2024-06-01T12',
    '2024-00-10',
    '2024-13-10',
    '2024-04-31',
    '1900-02-29',
    '2024-06-01T24:00',
    '2024-06-01T12:60',
    '2024-06-01T12:00:60Z',
    '2024-06-01T12:00+24:00',
    '2024-06-01T12:00+01:60',
    '2024-06-01 12',
    '+002024-06-01',
    '2024-06-01T12:00:00.1234567890Z',
    ' 2024-06-01',
  ])('refuses %j', (text) => {
    expect(parseIsoDate(text)).toBeNull();
  });
});

describe('resolveRange', () => {
  const range = (query: StatsQuery) => {
    const { start, end } = resolveRange(query, NOW);
    return { start: iso(start), end: iso(end) };
  };
  const refusal = (query: StatsQuery) => {
    try {
      resolveRange(query, NOW);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      return {
        status: appError.statusCode,
        code: appError.code,
        path: (appError.details?.['issues'] as Array<{ path: string }>)[0]?.path,
      };
    }
    throw new Error('expected a refusal');
  };

  it('defaults to the 7 x 24 h ending now', () => {
    expect(range({})).toEqual({ start: '2025-03-03T12:34:56.789Z', end: NOW.toISOString() });
  });

  it.each([
    ['day', '2025-03-09T12:34:56.789Z'],
    ['week', '2025-03-03T12:34:56.789Z'],
    ['month', '2025-02-08T12:34:56.789Z'],
  ] as const)('period=%s starts at %s', (period, start) => {
    expect(range({ period })).toEqual({ start, end: NOW.toISOString() });
  });

  it('keeps explicit dates, normalised to UTC', () => {
    expect(range({ start_date: '2025-01-01T03:00:00+03:00', end_date: '2025-01-02' })).toEqual({
      start: '2025-01-01T00:00:00.000Z',
      end: '2025-01-02T00:00:00.000Z',
    });
  });

  it('leaves the start open (null) with only end_date, and ends now with only start_date', () => {
    expect(range({ end_date: '2025-01-02' })).toEqual({ start: null, end: '2025-01-02T00:00:00.000Z' });
    expect(range({ start_date: '2025-01-02' })).toEqual({ start: '2025-01-02T00:00:00.000Z', end: NOW.toISOString() });
  });

  it.each([
    [{ period: 'day', start_date: '2025-01-01' }, 'querystring.period'],
    [{ period: 'week', end_date: '2025-01-01' }, 'querystring.period'],
    [{ start_date: 'soon' }, 'querystring.start_date'],
    [{ end_date: '2025-02-30' }, 'querystring.end_date'],
    [{ start_date: '2025-01-02', end_date: '2025-01-01' }, 'querystring.start_date'],
    [{ start_date: '2025-03-10T12:34:57Z' }, 'querystring.start_date'],
  ] as Array<[StatsQuery, string]>)('refuses %j with 400 validation_failed on %s', (query, path) => {
    expect(refusal(query)).toEqual({ status: 400, code: 'validation_failed', path });
  });
});
