// Generates secrets and the hashes they are stored under (docs/api.md, Identifiers and tokens), for every module that issues or checks tokens.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** 32 random bytes, base64url without padding: 43 characters. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newHash(): string {
  return randomUUID();
}

/** Whether a path or link segment can be a subscription token at all (base64url, bounded); others are never looked up. */
export function isTokenShaped(text: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(text);
}
