// The `proxies` list of a Clash/mihomo YAML profile, read without parsing the rest (rule lists can be megabytes).
import { parseDocument } from 'yaml';
import { dict } from './values.js';
import { StructureRefused } from './structure-scan.js';

export interface YamlProxies {
  entries: unknown[];
  /** Items cut off the text before parsing because they lie past the cap. */
  cut: number;
}

const PROXIES_LINE_RE = /^proxies[ \t]*:/m;
/** A line at column 0 that starts another top-level key (not an item, comment or blank line) ends the block. */
const NEXT_KEY_RE = /^[^\s#-]/m;
const ITEM_RE = /^([ \t]*)-(?:[ \t]|$)/gm;

/**
 * `maxAliasCount` bounds alias expansion ("billion laughs"); merge keys (`<<`) are common in Clash profiles. A body
 * that passes it is refused (StructureRefused), not read as something other than a profile.
 */
function parseYaml(text: string): unknown {
  try {
    const document = parseDocument(text, { merge: true, uniqueKeys: false });
    return document.errors.length > 0 ? undefined : document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof ReferenceError && /alias count/i.test(error.message)) {
      throw new StructureRefused('YAML aliases expand too far');
    }
    return undefined;
  }
}

/** Whether a line opens a top-level `proxies` key: only then is the body read as YAML. */
export function hasProxiesKey(body: string): boolean {
  return PROXIES_LINE_RE.test(body);
}

/**
 * The `proxies:` block alone, cut before its item number `max + 1` so that YAML work stays bounded by the cap, or
 * null when the body has no such top-level key.
 */
function proxiesBlock(body: string, max: number): { text: string; cut: number } | null {
  const start = PROXIES_LINE_RE.exec(body)?.index;
  if (start === undefined) return null;
  const firstLineEnd = body.indexOf('\n', start);
  const afterKey = firstLineEnd < 0 ? '' : body.slice(firstLineEnd + 1);
  const end = NEXT_KEY_RE.exec(afterKey)?.index ?? afterKey.length;
  const block = body.slice(start, firstLineEnd < 0 ? body.length : firstLineEnd + 1 + end);
  const items = [...block.matchAll(ITEM_RE)];
  const indent = items[0]?.[1];
  const starts = items.filter((item) => item[1] === indent).map((item) => item.index);
  const cutAt = starts[max];
  return cutAt === undefined ? { text: block, cut: 0 } : { text: block.slice(0, cutAt), cut: starts.length - max };
}

/**
 * The entries of the top-level `proxies` list, or null when the body is not such a YAML document. The block is parsed
 * on its own first; when that fails (an alias defined elsewhere, say), the whole body is.
 */
export function yamlProxies(body: string, max: number): YamlProxies | null {
  const block = proxiesBlock(body, max);
  if (block === null) return null;
  const fromBlock = dict(parseYaml(block.text))?.proxies;
  if (Array.isArray(fromBlock)) return { entries: fromBlock, cut: block.cut };
  const whole = dict(parseYaml(body))?.proxies;
  return Array.isArray(whole) ? { entries: whole, cut: 0 } : null;
}
