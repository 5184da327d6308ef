// A config source is stored with the line it serves and that line's parse result, so a cold GET reads them instead of parsing (docs/architecture.md).
import type { SourceRow } from '../../db/types.js';
import type { ParseResult } from '../../formats/proxy.js';
import { parseShareUri, renderConfig } from '../../formats/share-uri/index.js';
import { PARSED_FORM_VERSION, readStoredForm, storedForm } from '../../formats/share-uri/stored.js';

export type ConfigForm = Pick<SourceRow, 'line' | 'parsed' | 'parsed_comment' | 'parsed_version'>;

/** The stored form of a config with `comment`: its served line, parsed once. */
export function configForm(data: string, comment: string | null): ConfigForm {
  const line = renderConfig(data, comment);
  return {
    line,
    parsed: storedForm(parseShareUri(line)),
    parsed_comment: comment,
    parsed_version: PARSED_FORM_VERSION,
  };
}

/** A config's served line and its parse result (read when first asked for). */
export interface ConfigLine {
  line: string;
  parsed(): ParseResult;
}

/**
 * The line and parse result a config row holds, or null when it holds none for its comment from this version's
 * parser (a row stored before migration 010, or written by an instance of another version).
 */
export function storedConfigLine(row: ConfigForm & Pick<SourceRow, 'comment'>): ConfigLine | null {
  const { line, parsed } = row;
  if (line === null || parsed === null || row.parsed_version !== PARSED_FORM_VERSION) return null;
  if (row.parsed_comment !== row.comment) return null;
  return { line, parsed: () => readStoredForm(JSON.parse(parsed), line) };
}
