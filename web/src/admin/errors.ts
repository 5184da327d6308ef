// Turns a failed admin call into a sentence: the screen's own text for error codes it knows, the server's message otherwise.
import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';

/** `t` must have `errors.<code>` for each of `known` and `errors.other` with `{{message}}`. */
export function describeAdminError(error: Error, t: TFunction, known: readonly string[]): string {
  if (error instanceof ApiError && known.includes(error.code)) return t(`errors.${error.code}`);
  return t('errors.other', { message: error.message });
}
