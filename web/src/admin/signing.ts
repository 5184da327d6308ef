// Signs an admin request in the browser exactly as the CLI does (docs/admin-api.md): hex HMAC-SHA256 over timestamp, method, path with query and raw body.

/** WebCrypto's HMAC exists only in secure contexts: https, or http on localhost. */
export const canSign = (): boolean => typeof crypto !== 'undefined' && crypto.subtle !== undefined;

/** Typed from crypto.subtle itself, so this module also compiles (and is tested) under Node's types. */
type HmacKey = ReturnType<typeof crypto.subtle.importKey>;

const keys = new Map<string, HmacKey>();

function importKey(secret: string): HmacKey {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    keys.clear();
    keys.set(secret, key);
  }
  return key;
}

export interface AdminRequestParts {
  timestamp: string;
  method: string;
  /** The path as the browser sends it, with `?` and the query when there is one. */
  pathWithQuery: string;
  body: Uint8Array;
}

export async function signAdminRequest(secret: string, parts: AdminRequestParts): Promise<string> {
  const head = new TextEncoder().encode(parts.timestamp + parts.method.toUpperCase() + parts.pathWithQuery);
  const signed = new Uint8Array(head.length + parts.body.length);
  signed.set(head, 0);
  signed.set(parts.body, head.length);
  const mac = await crypto.subtle.sign('HMAC', await importKey(secret), signed);
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

let lastTimestamp = 0;

/**
 * Milliseconds, never the same twice in this tab: the server refuses a signature it has seen, and two identical
 * requests in one millisecond would otherwise sign alike.
 */
export function nextTimestamp(now = Date.now()): string {
  lastTimestamp = Math.max(now, lastTimestamp + 1);
  return String(lastTimestamp);
}
