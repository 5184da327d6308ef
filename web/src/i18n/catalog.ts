// String catalogs: each screen owns one namespace with the same keys in every language (docs/dashboard.md).
import { i18n } from './setup';
import type { Language } from './languages';

/** The shape of the English catalog with every leaf a string: another language must have exactly these keys. */
export type Catalog<T> = { [K in keyof T]: T[K] extends string ? string : Catalog<T[K]> };

export type Catalogs<T> = { en: T } & { [L in Exclude<Language, 'en'>]: Catalog<T> };

/** Adds a namespace in every language; called when the screen's module loads, so its strings ride in its chunk. */
export function registerStrings<T extends object>(namespace: string, catalogs: Catalogs<T>): string {
  for (const [language, strings] of Object.entries(catalogs)) {
    if (!i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, strings);
  }
  return namespace;
}
