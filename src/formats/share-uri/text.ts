// The text encodings share links are written in: percent-encoding, loose base64 and the JSON of vmess links.
const UNRESERVED_RE = /^[A-Za-z0-9._~-]$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** RFC 3986 percent-encoding of the UTF-8 bytes: only unreserved characters stay literal. */
export function encodeComment(comment: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(comment)) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED_RE.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Decodes standard or URL-safe base64, padded or not, ignoring whitespace; null unless the result is UTF-8 text. */
export function decodeBase64Loose(text: string): string | null {
  const compact = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const match = /^([A-Za-z0-9+/]*)(={0,2})$/.exec(compact);
  const data = match?.[1];
  const padding = match?.[2] ?? '';
  if (data === undefined || data.length % 4 === 1) return null;
  if (padding !== '' && (data.length + padding.length) % 4 !== 0) return null;
  try {
    return UTF8.decode(Buffer.from(data, 'base64'));
  } catch {
    return null;
  }
}

/** A JSON object, or null for any other JSON value or text that is not JSON. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
