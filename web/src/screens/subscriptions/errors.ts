// Turns an API error into a sentence in the user's language: known codes are translated, others show the server's message.
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

const KNOWN = ['name_exists', 'subscription_limit_reached', 'subscription_not_found', 'managed_by_provider'];

export function describeError(error: Error, t: TFunction): string {
  if (error instanceof ApiError && KNOWN.includes(error.code)) return t(`errors.${error.code}`);
  return t('errors.other', { message: error.message });
}
