// Signed, expiring invites that tie a connection link to one user and one provider (docs/providers.md); pure, so the admin authorize endpoint verifies exactly what the provider API issues.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const INVITE_TTL_SECONDS = 7 * 24 * 60 * 60;

const INVITE_PATTERN = /^([A-Za-z0-9_-]{43})\.(\d{1,15})$/;

function mac(key: string, userId: number, providerHash: string, expiresUnix: number): Buffer {
  return createHmac('sha256', key).update(`${userId}:${providerHash}:${expiresUnix}`).digest();
}

/** `<base64url HMAC-SHA256(key, "<user_id>:<provider_hash>:<expires_unix>")>.<expires_unix>`. */
export function createInvite(key: string, userId: number, providerHash: string, nowMs = Date.now()): string {
  const expiresUnix = Math.floor(nowMs / 1000) + INVITE_TTL_SECONDS;
  return `${mac(key, userId, providerHash, expiresUnix).toString('base64url')}.${expiresUnix}`;
}

/** True when `invite` was issued with `key` for this user and provider and has not expired (constant-time compare). */
export function verifyInvite(
  key: string,
  invite: string,
  userId: number,
  providerHash: string,
  nowMs = Date.now(),
): boolean {
  const match = INVITE_PATTERN.exec(invite);
  if (!match) return false;
  const expiresUnix = Number(match[2]);
  if (!Number.isSafeInteger(expiresUnix) || expiresUnix < Math.floor(nowMs / 1000)) return false;
  const encoded = match[1] as string;
  const presented = Buffer.from(encoded, 'base64url');
  // Only the canonical encoding counts: the last base64url character carries 2 spare bits that would decode alike.
  if (presented.length !== 32 || presented.toString('base64url') !== encoded) return false;
  return timingSafeEqual(presented, mac(key, userId, providerHash, expiresUnix));
}
