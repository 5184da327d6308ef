// The address fields' samples, and a refused ban or whitelist write in words: a bad address under its field,
// anything else above the form.
import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/client';

/** What the address fields accept: an IPv4 address, an IPv4 range, an IPv6 range. */
export const ADDRESS_SAMPLES = ['203.0.113.7', '203.0.113.0/24', '2001:db8::/32'];

export function fieldError(error: Error | null, t: TFunction): string | null {
  return error instanceof ApiError && error.code === 'validation_failed' ? t('errors.badAddress') : null;
}

export function formError(error: Error | null, t: TFunction): string | null {
  if (!error || fieldError(error, t)) return null;
  return t('errors.other', { message: error.message });
}
