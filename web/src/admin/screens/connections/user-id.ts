// What both connection forms share: reading a user id typed by the admin, and the error codes they explain.
export const KNOWN = [
  'user_not_found',
  'provider_not_found',
  'connection_not_found',
  'connection_not_pending',
  'provider_limit_reached',
  'invalid_invite',
  'validation_failed',
] as const;

export const userIdOf = (raw: string | null): number | null =>
  raw && /^[1-9]\d{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null;
