// The languages of the server-rendered pages: which one a request gets (?lang=, the remembered cookie, Accept-Language) and its strings.
import { en } from './en.js';
import { fa } from './fa.js';
import { ru } from './ru.js';
import { zh } from './zh.js';

export type MessageKey = keyof typeof en;
export type Catalog = Readonly<Record<MessageKey, string>>;

export const LANGUAGES = ['en', 'ru', 'zh', 'fa'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CATALOGS: Readonly<Record<Language, Catalog>> = { en, ru, zh, fa };

/** Each language's name in itself, for the switcher. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  ru: 'Русский',
  zh: '简体中文',
  fa: 'فارسی',
};

/** The `lang` attribute: Simplified Chinese is `zh-Hans`. */
export const HTML_LANG: Readonly<Record<Language, string>> = { en: 'en', ru: 'ru', zh: 'zh-Hans', fa: 'fa' };

/** The cookie the pages' scripts write when the visitor picks a language (`?lang=`), read on every later visit. */
export const LANGUAGE_COOKIE = 'subweave_lang';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

export const direction = (lang: Language): 'rtl' | 'ltr' => (lang === 'fa' ? 'rtl' : 'ltr');

/** The language of a tag such as `zh-CN`, `fa-IR` or `ru`; any Chinese reads Simplified Chinese, Dari reads Persian. */
function languageOfTag(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split('-')[0] ?? '';
  if (primary === 'prs') return 'fa';
  return isLanguage(primary) ? primary : null;
}

/** The best language of an Accept-Language header (RFC 9110 12.5.4 q-values), or null when none is ours. */
export function fromAcceptLanguage(header: string | undefined): Language | null {
  if (!header) return null;
  let best: { lang: Language; q: number } | null = null;
  for (const part of header.split(',').slice(0, 32)) {
    const [tag = '', ...params] = part.split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const lang = languageOfTag(tag);
    if (lang && Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? null;
}

/** The remembered choice in a Cookie header. */
export function fromCookie(header: string | undefined): Language | null {
  if (!header) return null;
  for (const pair of header.split(';')) {
    const [name, value] = pair.split('=').map((s) => s.trim());
    if (name === LANGUAGE_COOKIE && isLanguage(value)) return value;
  }
  return null;
}

export interface LanguageRequest {
  /** The `lang` query parameter. */
  query?: string | undefined;
  cookie?: string | undefined;
  acceptLanguage?: string | undefined;
}

/** An explicit `?lang=` wins, then the remembered cookie, then the browser's Accept-Language, then English. */
export function pickLanguage({ query, cookie, acceptLanguage }: LanguageRequest): Language {
  if (isLanguage(query)) return query;
  return fromCookie(cookie) ?? fromAcceptLanguage(acceptLanguage) ?? 'en';
}

export type Translate = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string;

/** Plain-text messages of one language, `{name}` placeholders filled in (the caller escapes the result for HTML). */
export function translator(lang: Language): Translate {
  const catalog = CATALOGS[lang];
  return (key, values = {}) =>
    catalog[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The placeholders a message uses, sorted: every catalog must use the same ones as English. */
export function placeholdersOf(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}
