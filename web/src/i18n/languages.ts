// The dashboard's languages, the one chosen from the browser's preferences, and the one remembered in localStorage.
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'zh', name: '简体中文', dir: 'ltr' },
  { code: 'fa', name: 'فارسی', dir: 'rtl' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: Language = 'en';
const STORAGE_KEY = 'subweave.language';

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((language) => language.code === value);
}

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return LANGUAGES.find((entry) => entry.code === language)?.dir ?? 'ltr';
}

/** The first of the browser's languages (navigator.languages, what it sends as Accept-Language) that we have. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

export function initialLanguage(): Language {
  const stored = safeStorage()?.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  return pickLanguage(navigator.languages ?? [navigator.language]);
}

export function rememberLanguage(language: Language): void {
  safeStorage()?.setItem(STORAGE_KEY, language);
}

/** localStorage throws in some private modes and when storage is disabled; the choice is then not remembered. */
function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
