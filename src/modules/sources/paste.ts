// A pasted block of sources (docs/api.md "Paste many"): split into lines, decoded when the whole block is base64,
// each line classified as a single source would be, with a reason code for each line that cannot be added.
import { AppError } from '../../http/errors.js';
import { decodeBase64Loose } from '../../formats/share-uri/index.js';
import { CONTROL_CHARACTER, prepareSources, type PreparedSource } from './source-input.js';
import { MAX_SOURCE_DATA_LENGTH, type PasteSkipReason } from '../subscriptions/subscriptions.schemas.js';

/** Non-blank lines a paste may hold; more is 413 too_many_sources before anything is classified. */
export const MAX_PASTE_LINES = 1000;

export interface PastedLine {
  /** 1-based line number in the text (in the decoded text when the block was base64). */
  line: number;
  /** The line, trimmed. */
  text: string;
}

/**
 * The non-blank lines of a paste, trimmed, split on CRLF, LF or CR. A block that is base64 as a whole (standard or
 * URL-safe, with or without line breaks) of text holding a URI is decoded first, as an upstream body would be.
 */
export function pastedLines(text: string): { lines: PastedLine[]; base64: boolean } {
  const decoded = decodeBase64Loose(text.trim());
  const base64 = decoded !== null && text.trim() !== '' && decoded.includes('://');
  const lines = (base64 ? decoded : text)
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map((line, index) => ({ line: index + 1, text: line.trim() }))
    .filter((line) => line.text !== '');
  return { lines, base64 };
}

export type LineVerdict =
  { ok: true; source: PreparedSource } | { ok: false; reason: PasteSkipReason; message: string };

/** One line classified exactly as `{"sources": [line]}` would be; `knownTokens` as for prepareSources. */
export function classifyPastedLine(text: string, baseUrl: string, knownTokens: ReadonlySet<string>): LineVerdict {
  if ([...text].length > MAX_SOURCE_DATA_LENGTH) {
    return { ok: false, reason: 'too_long', message: `longer than ${MAX_SOURCE_DATA_LENGTH} characters` };
  }
  if (CONTROL_CHARACTER.test(text)) {
    return { ok: false, reason: 'control_characters', message: 'contains a control character' };
  }
  try {
    const [source] = prepareSources([text], baseUrl, knownTokens);
    return { ok: true, source: source as PreparedSource };
  } catch (error) {
    return skippedFor(error);
  }
}

/** The skip verdict of an error a single source's checks throw (anything else is not about the line, and rethrown). */
export function skippedFor(error: unknown): LineVerdict {
  if (!(error instanceof AppError)) throw error;
  const reasonOf: Record<string, PasteSkipReason> = {
    invalid_source: 'invalid_source',
    invalid_url: 'invalid_url',
    validation_failed: 'invalid_comment',
    circular_reference: 'circular_reference',
    nesting_too_deep: 'nesting_too_deep',
  };
  const reason = reasonOf[error.code];
  if (!reason) throw error;
  const detail = error.details?.['reason'];
  // prepareSources names the item "Source 0"; the report names lines.
  const message = typeof detail === 'string' ? detail : error.message.replace(/^Source 0 /, 'The line ');
  return { ok: false, reason, message };
}
