// A source string can be a proxy config, an upstream subscription URL or a link to another subscription; this decides which, and its stable identity.
import { parseUrl } from '../../net/url.js';
import { createHash } from 'node:crypto';
import { CONFIG_SCHEMES, isValidProxyUri, proxyUriProblem, vmessName } from '../../formats/share-uri/index.js';
import { isTokenShaped } from '../../shared/tokens.js';

import type { SourceType } from '../../db/column-values.js';

export { SOURCE_TYPES, type SourceType } from '../../db/column-values.js';

export interface ClassifiedSource {
  type: SourceType;
  /** config: URI without fragment; external_url: URL without fragment; internal_token: the referenced token. */
  identity: string;
  /** configs only: the percent-decoded text after the first '#', or null. */
  comment: string | null;
  refToken?: string;
}

export type ClassifyResult =
  { ok: true; source: ClassifiedSource } | { ok: false; code: 'invalid_source' | 'invalid_url'; reason: string };

const ANY_SCHEME_RE = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const UNSAFE_URL_CHAR_RE = /[\s\p{Cc}\\]/u;
const SUBSCRIPTION_PATHS = ['/api/v1/sub/', '/sub/'];
/** `/sub/<token>` or `/api/v1/sub/<token>`, then at most a `/<format>` segment and a trailing slash. */
const COPIED_LINK_PATH_RE = /^\/(?:api\/v1\/)?sub\/([^/]+)(?:\/[A-Za-z0-9_-]+)?\/?$/;

/**
 * `knownTokens`: subscription tokens that exist, among those `copiedLinkToken` finds in the inputs; a link to one
 * of them from any address is a reference (docs/api.md, Classification).
 */
export function classifySource(
  input: string,
  baseUrl: string,
  knownTokens: ReadonlySet<string> = new Set(),
): ClassifyResult {
  const text = input.trim();
  if (text === '') return invalidSource('source is empty');

  const internal = classifyInternal(text, baseUrl);
  if (internal !== null) return internal;
  const copied = copiedLinkToken(text, baseUrl);
  if (copied !== null && knownTokens.has(copied)) return reference(copied);

  const scheme = ANY_SCHEME_RE.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return classifyExternal(text);
  if (scheme !== undefined && CONFIG_SCHEMES.includes(scheme)) return classifyConfig(text);
  if (scheme !== undefined) return invalidSource(`unsupported scheme '${scheme}'`);
  return invalidSource('not a proxy config URI or an http(s) URL');
}

export function sourceId(type: SourceType, identity: string): string {
  const material = type === 'internal_token' ? `internal:${identity}` : identity;
  return createHash('sha256').update(material, 'utf8').digest('hex').slice(0, 32);
}

/** For upstream subscription content: does this line hold a usable proxy config? */
export function isConfigLine(line: string): boolean {
  const { identity } = splitComment(line.trim());
  return identity !== '' && isValidProxyUri(identity);
}

function invalidSource(reason: string): ClassifyResult {
  return { ok: false, code: 'invalid_source', reason };
}

function invalidUrl(reason: string): ClassifyResult {
  return { ok: false, code: 'invalid_url', reason };
}

/**
 * The token of a public link copied from some other address of this service (a LAN address, 127.0.0.1, an old
 * domain): an http(s) URL whose path is `/sub/<token>` or `/api/v1/sub/<token>` (or that under the base URL's path),
 * optionally followed by a `/<format>` segment, a query or a fragment. Null for anything else. Whether the token
 * exists decides whether the link is a reference or an external URL.
 */
export function copiedLinkToken(input: string, baseUrl: string): string | null {
  const text = input.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  const url = parseUrl(text);
  if (url === null) return null;
  const basePath = (parseUrl(baseUrl)?.pathname ?? '').replace(/\/+$/, '');
  const path =
    basePath !== '' && url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
  const token = COPIED_LINK_PATH_RE.exec(path)?.[1];
  return token !== undefined && isTokenShaped(token) ? token : null;
}

/** Null when `text` does not point into this service's own subscription endpoints. */
function classifyInternal(text: string, baseUrl: string): ClassifyResult | null {
  const base = parseUrl(baseUrl);
  const url = parseUrl(text);
  if (base === null || url === null || url.origin !== base.origin || url.origin === 'null') return null;
  const basePath = base.pathname.replace(/\/+$/, '');
  for (const suffix of SUBSCRIPTION_PATHS) {
    const prefix = basePath + suffix;
    if (!url.pathname.startsWith(prefix)) continue;
    const token = url.pathname.slice(prefix.length).split('/', 1)[0] ?? '';
    if (!isTokenShaped(token)) {
      return invalidSource(token === '' ? 'subscription link has no token' : 'subscription link has a malformed token');
    }
    return reference(token);
  }
  return null;
}

function reference(token: string): ClassifyResult {
  return { ok: true, source: { type: 'internal_token', identity: token, comment: null, refToken: token } };
}

function classifyExternal(text: string): ClassifyResult {
  const identity = splitComment(text).identity;
  if (!/^https?:\/\//i.test(identity)) return invalidUrl("URL must start with 'http://' or 'https://'");
  if (UNSAFE_URL_CHAR_RE.test(identity))
    return invalidUrl('URL must not contain whitespace, control characters or backslashes');
  const url = parseUrl(identity);
  if (url === null || url.hostname === '') return invalidUrl('URL is not valid');
  if (url.username !== '' || url.password !== '') return invalidUrl('URL must not contain credentials');
  return { ok: true, source: { type: 'external_url', identity, comment: null } };
}

function classifyConfig(text: string): ClassifyResult {
  const { identity, rawComment } = splitComment(text);
  const problem = proxyUriProblem(identity);
  if (problem !== null) return invalidSource(problem);
  // A pasted v2rayN link names its server in the JSON `ps`: without a '#', that name is the comment (docs/api.md, Comments).
  const comment = rawComment === null ? trimmedOrNull(vmessName(identity) ?? '') : decodeComment(rawComment);
  return { ok: true, source: { type: 'config', identity, comment } };
}

function splitComment(text: string): { identity: string; rawComment: string | null } {
  const hash = text.indexOf('#');
  if (hash < 0) return { identity: text, rawComment: null };
  return { identity: text.slice(0, hash).trim(), rawComment: text.slice(hash + 1) };
}

function decodeComment(raw: string | null): string | null {
  if (raw === null) return null;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // a stray '%' is kept as typed
  }
  return trimmedOrNull(decoded);
}

function trimmedOrNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}
