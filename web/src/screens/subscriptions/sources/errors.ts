// Turns an API error of the sources endpoints into a sentence in the user's language (docs/api.md, Errors).
import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/client';

const KNOWN = [
  'too_many_sources',
  'managed_by_provider',
  'source_not_found',
  'config_not_found',
  'subscription_not_found',
];

export function describeError(error: Error, t: TFunction): string {
  if (error instanceof ApiError && KNOWN.includes(error.code)) return t(`errors.${error.code}`);
  if (error instanceof ApiError && error.code === 'validation_failed') {
    return t('errors.validation_failed', { message: error.message });
  }
  return t('errors.other', { message: error.message });
}
