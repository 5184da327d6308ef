// Sends one admin API request signed as docs/admin-api.md says, so the CLI (and scripts) never hand-roll the scheme.
import { signRequest } from './signature.js';

export const ADMIN_API_PREFIX = '/api/v1/admin';

export interface AdminRequest {
  method: string;
  /** Path below /api/v1/admin, its segments already percent-encoded. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

export interface AdminResponse {
  status: number;
  /** Parsed JSON, the raw text when the body is not JSON, or null when empty. */
  body: unknown;
}

const TIMEOUT_MS = 30_000;

/** Percent-encodes one path segment: a CIDR's `/` becomes `%2F`, an IPv6 `:` becomes `%3A`. */
export function pathSegment(value: string | number): string {
  return encodeURIComponent(String(value));
}

export async function sendAdminRequest(baseUrl: string, secret: string, request: AdminRequest): Promise<AdminResponse> {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${ADMIN_API_PREFIX}${request.path}`);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const timestamp = String(Date.now());
  // Sign what goes on the wire: the URL parser may normalise the path, so read it back from the URL object.
  const pathWithQuery = `${url.pathname}${url.search}`;
  const signature = signRequest(secret, { timestamp, method: request.method, pathWithQuery, body });
  const response = await fetch(url, {
    method: request.method,
    headers: {
      'x-timestamp': timestamp,
      'x-signature': signature,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body } : {}),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await response.text();
  let parsed: unknown = null;
  if (text !== '') {
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, body: parsed };
}
