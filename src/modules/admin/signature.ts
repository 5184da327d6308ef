// The admin request signature (docs/admin-api.md): HMAC-SHA256 over timestamp, method, path with query, and raw body.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_WINDOW_MS = 60_000;

export interface SignedRequest {
  timestamp: string;
  method: string;
  /** The path as sent, with `?` and the raw query string when there is one. */
  pathWithQuery: string;
  body: Buffer | string;
}

export function signRequest(secret: string, request: SignedRequest): string {
  return createHmac('sha256', secret)
    .update(request.timestamp)
    .update(request.method.toUpperCase())
    .update(request.pathWithQuery)
    .update(request.body)
    .digest('hex');
}

export type SignatureVerdict = 'ok' | 'missing_signature' | 'signature_expired' | 'invalid_signature';

export function verifySignature(
  secret: string,
  request: SignedRequest,
  signature: string | undefined,
  nowMs: number,
): SignatureVerdict {
  if (!signature || !request.timestamp) return 'missing_signature';
  if (!/^\d{1,16}$/.test(request.timestamp) || Math.abs(nowMs - Number(request.timestamp)) > SIGNATURE_WINDOW_MS) {
    return 'signature_expired';
  }
  const expected = Buffer.from(signRequest(secret, request), 'hex');
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'invalid_signature';
}
