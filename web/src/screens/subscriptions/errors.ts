// Turns an API error into a sentence in the user's language: known codes are translated, others show the server's message.
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

const KNOWN = ['name_exists', 'subscription_limit_reached', 'subscription_not_found', 'managed_by_provider'];
const LINE_ERRORS = ['invalid_source', 'invalid_url'];

export function describeError(error: Error, t: TFunction): string {
  if (error instanceof ApiError && KNOWN.includes(error.code)) return t(`errors.${error.code}`);
  // A pasted line the server refused: name the line, as the server's "Source 0 ..." counts from zero.
  const data = error instanceof ApiError ? error.details?.['data'] : undefined;
  if (error instanceof ApiError && LINE_ERRORS.includes(error.code) && typeof data === 'string') {
    return t(`errors.${error.code}`, { data });
  }
  return t('errors.other', { message: error.message });
}
