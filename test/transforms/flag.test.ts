// Country guesses for `flag` from real server names: names and codes in English, Chinese and Russian, and no false flags.
import { describe, expect, it } from 'vitest';
import { flagEmoji, guessCountry, hasFlag, withFlag } from '../../src/modules/transforms/flag.js';

describe('guessCountry', () => {
  const cases: Array<[string, string]> = [
    ['[Provider] JP-01', 'JP'],
    ['香港 01', 'HK'],
    ['日本东京', 'JP'],
    ['Германия-1', 'DE'],
    ['Singapore SG', 'SG'],
    ['美国 洛杉矶', 'US'],
    ['US West', 'US'],
    ['Moscow', 'RU'],
    ['HK-02', 'HK'],
    ['[JP]', 'JP'],
    ['US 01', 'US'],
    ['SG01', 'SG'],
    ['Japan01', 'JP'],
    ['Hong Kong 02', 'HK'],
    ['HongKong 3', 'HK'],
    ['South Korea', 'KR'],
    ['Korea 01', 'KR'],
    ['韩国首尔', 'KR'],
    ['Нидерланды', 'NL'],
    ['США 1', 'US'],
    ['Россия Москва', 'RU'],
    ['UK London', 'GB'],
    ['USA 2', 'US'],
    ['Tokyo', 'JP'],
    ['Frankfurt DE', 'DE'],
    ['印度尼西亚 01', 'ID'],
    ['印度 01', 'IN'],
    ['Papua New Guinea', 'PG'],
    ['Türkiye', 'TR'],
    // Traditional Chinese
    ['美國 洛杉磯', 'US'],
    ['臺灣 01', 'TW'],
    ['台灣 新北', 'TW'],
    ['日本 東京', 'JP'],
    ['韓國 首爾', 'KR'],
    ['英國 倫敦', 'GB'],
    // relays name the entry in China first
    ['上海 → 日本 IPLC', 'JP'],
    ['中国香港 01', 'HK'],
    ['HK CN2 01', 'HK'],
    ['北京 01', 'CN'],
    // word-like codes count only in a code's place
    ['IN 01', 'IN'],
    ['[IT]', 'IT'],
    ['(DE)', 'DE'],
  ];
  it.each(cases)('%s -> %s', (name, code) => {
    expect(guessCountry(name)).toBe(code);
  });

  const none: string[] = [
    'CNAME test',
    'Check IN now',
    'it works',
    'us-west',
    'Remaining 10 GB',
    '100GB left',
    'Premium',
    'Expressway',
    'AI Tools',
    'CN2 GIA 01',
    'LA 01',
    '广港 IPLC 01',
    'VIP',
    '',
  ];
  it.each(none)('%s -> nothing', (name) => {
    expect(guessCountry(name)).toBeNull();
  });

  it('reads only the start of a very long name', () => {
    expect(guessCountry(`${'x'.repeat(300)} Japan`)).toBeNull();
    expect(guessCountry(`Japan ${'x'.repeat(100_000)}`)).toBe('JP');
  });
});

describe('withFlag', () => {
  it('puts the flag and a space in front', () => {
    expect(withFlag('[Provider] JP-01')).toBe('🇯🇵 [Provider] JP-01');
    expect(withFlag('Германия-1')).toBe('🇩🇪 Германия-1');
  });

  it('never adds a second flag, wherever the first is', () => {
    expect(withFlag('🇯🇵 Tokyo 01')).toBe('🇯🇵 Tokyo 01');
    expect(withFlag('Tokyo 01 🇯🇵')).toBe('Tokyo 01 🇯🇵');
    expect(withFlag('🇺🇸 Tokyo relay')).toBe('🇺🇸 Tokyo relay');
  });

  it('leaves names it cannot place alone', () => {
    expect(withFlag('Premium 01')).toBe('Premium 01');
  });

  it('writes flags from codes', () => {
    expect(flagEmoji('SG')).toBe('🇸🇬');
    expect(hasFlag('🇸🇬')).toBe(true);
    expect(hasFlag('SG')).toBe(false);
  });
});
