// Upstream subscriptions come as base64 or plain text in many dialects; this turns a body into the config lines it holds (DESIGN 6).
import { isConfigLine } from '../sources/classify.js';
import { decodeBase64Loose } from '../sources/proxy-uri.js';

const BOM = '\uFEFF';

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

function isSkipped(line: string): boolean {
  return line === '' || line.startsWith('#') || line.startsWith('//');
}

/** The config lines of a subscription body, in order, each with its own `#remark`; duplicates are kept. */
export function parseSubscriptionContent(body: string): string[] {
  const raw = stripBom(body);
  const decoded = decodeBase64Loose(raw.trim());
  const text = decoded === null ? raw : stripBom(decoded);
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => !isSkipped(line) && isConfigLine(line));
}
