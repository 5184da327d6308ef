// Upstream subscriptions come as base64 or plain text in many dialects; this turns a body into the config lines it holds (docs/api.md, External sources and refresh).
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTick } from 'node:timers/promises';
import { isConfigLine } from '../sources/classify.js';
import { decodeBase64Loose } from '../../formats/share-uri/index.js';
import { lineIdentity } from '../resolve/resolver.js';
import { profileShareUris } from '../../formats/upstream-profiles.js';

const BOM = '\uFEFF';

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

/** C0/C1 controls (tab and DEL included) and lone surrogates: no client shows them and PostgreSQL refuses NUL. */
// eslint-disable-next-line no-control-regex
const UNSAFE_RE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasUnsafeCharacters(line: string): boolean {
  return UNSAFE_RE.test(line);
}

function isSkipped(line: string): boolean {
  return line === '' || line.startsWith('#') || line.startsWith('//') || UNSAFE_RE.test(line);
}

/**
 * Longest stretch of classification between two yields to the event loop. Kept short because several bodies may be
 * parsed at once and each gets its stretch in every turn of the loop.
 */
const MS_PER_TICK = 2;
/** How often (in lines) the clock is read. */
const LINES_PER_CLOCK_CHECK = 32;
/** Characters of a body cleaned or decoded between two yields (a multiple of 4). */
const CHARS_PER_TICK = 256 * 1024;
const NOT_BASE64_RE = /[^A-Za-z0-9+/=\s_-]/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * decodeBase64Loose in slices with yields between them, for large bodies. A body with a character base64 never
 * holds (a plain-text body's first `://`) is recognised at once.
 */
async function decodeBase64Sliced(text: string): Promise<string | null> {
  if (NOT_BASE64_RE.test(text.slice(0, 4096))) return null;
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += CHARS_PER_TICK) {
    if (i > 0) await nextTick();
    const part = text.slice(i, i + CHARS_PER_TICK);
    if (NOT_BASE64_RE.test(part)) return null;
    parts.push(part.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/'));
  }
  const compact = parts.join('');
  let end = compact.length;
  while (end > 0 && compact[end - 1] === '=') end--;
  const padding = compact.slice(end);
  const data = compact.slice(0, end);
  // Only the base64 alphabet and '=' are left; '=' may only close the text, at most twice.
  if (padding.length > 2 || data.includes('=') || data.length % 4 === 1) return null;
  if (padding !== '' && (data.length + padding.length) % 4 !== 0) return null;
  const bytes: Buffer[] = [];
  for (let i = 0; i < data.length; i += CHARS_PER_TICK) {
    if (i > 0) await nextTick();
    bytes.push(Buffer.from(data.slice(i, i + CHARS_PER_TICK), 'base64'));
  }
  try {
    return UTF8.decode(Buffer.concat(bytes));
  } catch {
    return null;
  }
}

async function bodyTextSliced(body: string): Promise<string> {
  const raw = stripBom(body);
  const decoded = raw.length > CHARS_PER_TICK ? await decodeBase64Sliced(raw.trim()) : decodeBase64Loose(raw.trim());
  return decoded === null ? raw : stripBom(decoded);
}

/**
 * The stored form of an upstream body: its config lines in order, de-duplicated by identity (first wins), at most
 * `maxLines` (more could never be served). Classification runs in slices with a yield between them and stops at the
 * cap, so a large body costs a few short ticks instead of one long one.
 */
export async function parseUpstreamLines(body: string | Buffer, maxLines: number): Promise<string[]> {
  const collector = new LineCollector(maxLines);
  const profile = looksLikeProfile(body) ? structuredProfile(body, maxLines) : null;
  if (profile) {
    await collector.add(profile.join('\n'));
    return collector.lines;
  }
  const bytes = typeof body === 'string' ? null : body;
  const bomBytes = bytes?.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
  if (bytes && NOT_BASE64_RE.test(bytes.subarray(bomBytes, bomBytes + 4096).toString('latin1'))) {
    // Plain text (a base64 body has no such byte): decoded piece by piece, and only until the cap is reached.
    let carry = '';
    for await (const piece of textPieces(bytes)) {
      const text = carry + piece;
      const lastNewline = text.lastIndexOf('\n');
      carry = lastNewline === -1 ? text : text.slice(lastNewline + 1);
      if (lastNewline !== -1) await collector.add(text.slice(0, lastNewline));
      if (collector.full) return collector.lines;
    }
    await collector.add(carry);
    return collector.lines;
  }
  const text = bytes ? await collectPieces(bytes) : (body as string);
  await collector.add(await bodyTextSliced(text));
  return collector.lines;
}

/** A JSON document, or YAML with a top-level `proxies` key: cheap tests on the bytes before anything is decoded. */
export function looksLikeProfile(body: string | Buffer): boolean {
  const head = (typeof body === 'string' ? body.slice(0, 64) : body.subarray(0, 64).toString('latin1'))
    .replace(/^(\uFEFF|\xEF\xBB\xBF)/, '')
    .trimStart();
  if (head.startsWith('{')) return true;
  return head.startsWith('proxies:') || body.indexOf('\nproxies:') !== -1;
}

/** The servers of a Clash/mihomo or sing-box profile as share URIs (docs/api.md, External sources and refresh), or null when the body is not one. */
function structuredProfile(body: string | Buffer, maxLines: number): string[] | null {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return profileShareUris(text, { maxBytes: text.length * 4 + 1, maxProxies: maxLines })?.uris ?? null;
}

/** Keeps the first occurrence of each config line's identity until it holds `maxLines`. */
class LineCollector {
  readonly lines: string[] = [];
  private readonly seen = new Set<string>();
  private scanned = 0;
  private sliceStart = performance.now();
  private first = true;

  constructor(private readonly maxLines: number) {}

  get full(): boolean {
    return this.lines.length >= this.maxLines;
  }

  /** Walks `text` line by line instead of splitting it whole, yielding every MS_PER_TICK. */
  async add(text: string): Promise<void> {
    if (this.first) text = stripBom(text);
    this.first = false;
    for (let start = 0; start <= text.length && !this.full;) {
      if (++this.scanned % LINES_PER_CLOCK_CHECK === 0 && performance.now() - this.sliceStart > MS_PER_TICK) {
        await nextTick();
        this.sliceStart = performance.now();
      }
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      const line = text.slice(start, end).trim();
      start = end + 1;
      if (isSkipped(line) || !isConfigLine(line)) continue;
      const identity = lineIdentity(line);
      if (this.seen.has(identity)) continue;
      this.seen.add(identity);
      this.lines.push(line);
    }
  }
}

/** UTF-8 text of `bytes` in pieces of CHARS_PER_TICK bytes, a yield between pieces (split characters are carried). */
async function* textPieces(bytes: Buffer): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for (let i = 0; i < bytes.length; i += CHARS_PER_TICK) {
    if (i > 0) await nextTick();
    yield decoder.write(bytes.subarray(i, i + CHARS_PER_TICK));
  }
  const tail = decoder.end();
  if (tail !== '') yield tail;
}

async function collectPieces(bytes: Buffer): Promise<string> {
  const pieces: string[] = [];
  for await (const piece of textPieces(bytes)) pieces.push(piece);
  return pieces.join('');
}
