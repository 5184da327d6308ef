// The pages' catalogs: every language has every English key with the same placeholders, and the language choice order.
import { describe, expect, it } from 'vitest';
import {
  CATALOGS,
  direction,
  fromAcceptLanguage,
  LANGUAGES,
  pickLanguage,
  placeholdersOf,
  translator,
  type MessageKey,
} from '../../src/i18n/i18n.js';

const ENGLISH_KEYS = Object.keys(CATALOGS.en).sort();

describe('page catalogs', () => {
  it.each(LANGUAGES.filter((lang) => lang !== 'en'))('%s has exactly the English keys', (lang) => {
    const keys = Object.keys(CATALOGS[lang]).sort();
    expect(
      ENGLISH_KEYS.filter((key) => !keys.includes(key)),
      'missing',
    ).toEqual([]);
    expect(
      keys.filter((key) => !ENGLISH_KEYS.includes(key)),
      'unknown',
    ).toEqual([]);
  });

  it.each(LANGUAGES)('%s keeps the placeholders of every English message and leaves none empty', (lang) => {
    for (const key of ENGLISH_KEYS as MessageKey[]) {
      const message = CATALOGS[lang][key];
      expect(message.trim(), `${lang} ${key}`).not.toBe('');
      expect(placeholdersOf(message), `${lang} ${key}`).toEqual(placeholdersOf(CATALOGS.en[key]));
    }
  });

  it('translates with placeholders filled in, in the chosen language', () => {
    expect(translator('en')('apps.add', { app: 'Happ' })).toBe('Add to Happ');
    expect(translator('ru')('apps.add', { app: 'Happ' })).toBe('Добавить в Happ');
    expect(translator('zh')('facts.in_days', { days: 3 })).toBe('剩余 3 天');
    expect(translator('fa')('apps.add', { app: 'Hiddify' })).toBe('افزودن به Hiddify');
    expect(direction('fa')).toBe('rtl');
    expect(LANGUAGES.filter((lang) => direction(lang) === 'rtl')).toEqual(['fa']);
  });

  it('reads Accept-Language by quality, any Chinese as Simplified Chinese and Dari as Persian', () => {
    expect(fromAcceptLanguage('ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('ru');
    expect(fromAcceptLanguage('de-DE, en;q=0.5, fa;q=0.8')).toBe('fa');
    expect(fromAcceptLanguage('zh-TW')).toBe('zh');
    expect(fromAcceptLanguage('zh-Hans-CN,zh;q=0.9')).toBe('zh');
    expect(fromAcceptLanguage('prs-AF')).toBe('fa');
    expect(fromAcceptLanguage('de, fr;q=0.9')).toBeNull();
    expect(fromAcceptLanguage('ru;q=0, en;q=0.1')).toBe('en');
    expect(fromAcceptLanguage('ru;q=abc')).toBeNull();
    expect(fromAcceptLanguage(undefined)).toBeNull();
  });

  it('prefers ?lang=, then the remembered cookie, then Accept-Language, then English', () => {
    const acceptLanguage = 'zh-CN';
    const cookie = 'a=1; subweave_lang=fa; b=2';
    expect(pickLanguage({ query: 'ru', cookie, acceptLanguage })).toBe('ru');
    expect(pickLanguage({ query: 'xx', cookie, acceptLanguage })).toBe('fa');
    expect(pickLanguage({ cookie: 'subweave_lang=de', acceptLanguage })).toBe('zh');
    expect(pickLanguage({})).toBe('en');
  });
});
