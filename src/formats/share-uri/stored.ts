// Lines are stored with their parsed form, so a cold render reads nodes instead of parsing the lines again (docs/architecture.md).
import type { ParseResult, ProxyNode } from '../proxy.js';

/**
 * The version of the parsed form: stored next to it, and a form of any other version is parsed again. Bump it with
 * the fingerprint below whenever parseShareUri, renderConfig or the shape of ProxyNode changes what a line parses
 * to; test/unit/stored-form.test.ts fails until both agree with the parser.
 */
export const PARSED_FORM_VERSION = 2;
/** SHA-256 (base64url) of the stored forms of the golden lines at this version, as the test above computes it. */
export const PARSED_FORM_FINGERPRINT = 'TottKbHCSMKnbI7NVFH5GoISNMg-p2zgxYHjaYqGcps';

type StoredResult = { node: Omit<ProxyNode, 'uri'> } | { reason: string };

/** The stored text of one line's parse result; the node's `uri` is left out, the line gives it back. */
export function storedForm(result: ParseResult): string {
  if (!result.ok) return JSON.stringify({ reason: result.reason } satisfies StoredResult);
  const { uri: _uri, ...node } = result.node;
  return JSON.stringify({ node } satisfies StoredResult);
}

/** The parse result of `line` from its stored form, equal to what parseShareUri(line) answered when it was stored. */
export function readStoredForm(stored: unknown, line: string): ParseResult {
  const result = stored as StoredResult;
  if ('reason' in result) return { ok: false, reason: result.reason };
  const node = result.node as ProxyNode;
  node.uri = line.trim();
  return { ok: true, node };
}
