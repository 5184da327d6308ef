// Upstream subscriptions come as base64 or plain text in many dialects; this turns a body into the config lines it holds (DESIGN 6, 13).
import { setImmediate as nextTick } from 'node:timers/promises';
import { isConfigLine } from '../sources/classify.js';
import { decodeBase64Loose } from '../sources/proxy-uri.js';
import { lineIdentity } from '../resolve/resolver.js';

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

/** Lines classified between two yields to the event loop, so a 5 MB body never holds it for long. */
const LINES_PER_TICK = 500;

function bodyText(body: string): string {
  const raw = stripBom(body);
  const decoded = decodeBase64Loose(raw.trim());
  return decoded === null ? raw : stripBom(decoded);
}

/**
 * The stored form of an upstream body: its config lines in order, de-duplicated by identity (first wins), at most
 * `maxLines` (more could never be served). Classification runs in slices with a yield between them and stops at the
 * cap, so a large body costs a few short ticks instead of one long one.
 */
export async function parseUpstreamLines(body: string, maxLines: number): Promise<string[]> {
  const candidates = bodyText(body).split(/\r?\n/);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (let start = 0; start < candidates.length && lines.length < maxLines; start += LINES_PER_TICK) {
    if (start > 0) await nextTick();
    for (const candidate of candidates.slice(start, start + LINES_PER_TICK)) {
      const line = candidate.trim();
      if (isSkipped(line) || !isConfigLine(line)) continue;
      const identity = lineIdentity(line);
      if (seen.has(identity)) continue;
      seen.add(identity);
      lines.push(line);
      if (lines.length >= maxLines) break;
    }
  }
  return lines;
}

/** The config lines of a subscription body, in order, each with its own `#remark`; duplicates are kept. */
export function parseSubscriptionContent(body: string): string[] {
  return bodyText(body)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => !isSkipped(line) && isConfigLine(line));
}
