// Turns a refused ban or whitelist write into words: a bad address belongs under its field, anything else above the form.
import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/client';

export function fieldError(error: Error | null, t: TFunction): string | null {
  return error instanceof ApiError && error.code === 'validation_failed' ? t('errors.badAddress') : null;
}

export function formError(error: Error | null, t: TFunction): string | null {
  if (!error || fieldError(error, t)) return null;
  return t('errors.other', { message: error.message });
}
