// Starts i18next when first imported, in the language remembered or chosen from the browser, and keeps <html lang dir>
// in step with it. Catalogs import this module, so i18next exists before any screen adds its strings.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, directionOf, initialLanguage, type Language } from './languages';

export function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

const language = initialLanguage();
// Resources come from the screens' catalogs (addResourceBundle); nothing is fetched, so init completes at once.
void i18n.use(initReactI18next).init({
  lng: language,
  fallbackLng: DEFAULT_LANGUAGE,
  resources: {},
  interpolation: { escapeValue: false }, // React escapes
  react: { useSuspense: false },
});
applyDocumentLanguage(language);

export { i18n };
