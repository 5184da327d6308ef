// Numbers put into the dashboard's text in the reader's own digits (Persian shows ۱۲۳, not 123): counts grouped as the
// language groups them, identifiers digit for digit; every number in a sentence goes through here (docs/dashboard.md).
import { useTranslation } from 'react-i18next';

/** A count or amount: `1234` is "1,234" in English, "۱٬۲۳۴" in Persian. */
export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/**
 * An identifier (a user id, a line number): each digit in the language's digits, never grouped, exact however long
 * (a 16-digit id is past what a double holds). Text that is not all digits is returned as it is.
 */
export function formatId(value: number | string, language: string): string {
  const text = String(value);
  if (!/^\d+$/.test(text)) return text;
  const digits = new Intl.NumberFormat(language, { useGrouping: false });
  return text.replace(/\d/g, (digit) => digits.format(Number(digit)));
}

/** Persian and Arabic-Indic digits typed into a field, as the ASCII digits the API takes. */
export function latinDigits(text: string): string {
  return text.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) & 0xf));
}

/** `formatNumber` and `formatId` in the dashboard's current language. */
export function useNumbers(): { number: (value: number) => string; id: (value: number | string) => string } {
  const { i18n } = useTranslation();
  return {
    number: (value) => formatNumber(value, i18n.language),
    id: (value) => formatId(value, i18n.language),
  };
}
