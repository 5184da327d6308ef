// A YAML writer for plain data: the `yaml` package takes about a second for 5,000 proxies, this a few milliseconds.

/** Unquoted only when no YAML 1.1 or 1.2 reader could take the text for anything but that string. */
const PLAIN = /^[A-Za-z_/][\w./+-]*$/;
const NOT_STRINGS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);
/** JSON leaves these raw; YAML needs them escaped (not printable, or line breaks to YAML 1.1 readers such as mihomo's). */
const YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufffe\uffff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NEEDS_CARE = new RegExp(`${YAML_UNSAFE.source}|${LONE_SURROGATE.source}`);

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** JSON writes a lone surrogate as a `\udXXX` escape, which YAML readers such as libyaml refuse. */
const ESCAPED_LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/gi;

/**
 * A list written one item per line in JSON flow form (`- {"name":"a",...}`), which every YAML reader takes; it is
 * what makes 5,000 proxies cheap to write.
 */
export class FlowList {
  constructor(readonly items: readonly unknown[]) {}
}

const flowText = (item: unknown): string =>
  JSON.stringify(item).replace(YAML_UNSAFE, escaped).replace(ESCAPED_LONE_SURROGATE, '$1\\ufffd');

/** Keys repeat in every proxy; their text is worked out once. */
const keyTexts = new Map<string, string>();
function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = scalar(key);
    if (keyTexts.size < 1000) keyTexts.set(key, text);
  }
  return text;
}

function scalar(value: unknown): string {
  switch (typeof value) {
    case 'string':
      if (PLAIN.test(value) && (value.length > 5 || !NOT_STRINGS.has(value.toLowerCase()))) return value;
      if (!NEEDS_CARE.test(value)) return JSON.stringify(value);
      return JSON.stringify(value.replace(LONE_SURROGATE, '\ufffd')).replace(YAML_UNSAFE, escaped);
    case 'number':
      if (Number.isFinite(value)) return String(value);
      return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    default:
      return 'null';
  }
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A map or list with something to write under its key; empty ones are written inline as `{}` or `[]`. */
function isBlock(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return value.length > 0;
  if (!isMap(value) || value instanceof FlowList) return false;
  for (const key in value) if (value[key] !== undefined) return true;
  return false;
}

/** A scalar, or an empty collection in flow form. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return '[]';
  if (isMap(value)) return '{}';
  return scalar(value);
}

/** The YAML text of a JSON-like map, with a final newline. */
export function toYaml(document: Record<string, unknown>): string {
  // Server names appear in `proxies` and again in every group: each string is worked out once per document.
  const texts = new Map<string, string>();
  const inlineText = (value: unknown): string => {
    if (typeof value !== 'string') return inline(value);
    let text = texts.get(value);
    if (text === undefined) texts.set(value, (text = scalar(value)));
    return text;
  };
  let out = '';
  /** Writes a map or list whose lines are indented by `indent`; its first line starts with `first` instead. */
  const block = (value: Record<string, unknown> | unknown[], indent: string, first: string): void => {
    const inner = `${indent}  `;
    let prefix = first;
    if (Array.isArray(value)) {
      for (const item of value) {
        // A map's first key shares the dash's line: "- key: value".
        if (isMap(item) && isBlock(item)) block(item, inner, `${prefix}- `);
        else if (isBlock(item)) {
          out += `${prefix}-\n`;
          block(item, inner, inner);
        } else out += `${prefix}- ${inlineText(item)}\n`;
        prefix = indent;
      }
      return;
    }
    for (const key in value) {
      const item = value[key];
      if (item === undefined) continue;
      if (item instanceof FlowList) {
        if (item.items.length === 0) out += `${prefix}${keyText(key)}: []\n`;
        else {
          out += `${prefix}${keyText(key)}:\n`;
          for (const entry of item.items) out += `${inner}- ${flowText(entry)}\n`;
        }
      } else if (isBlock(item)) {
        out += `${prefix}${keyText(key)}:\n`;
        block(item, inner, inner);
      } else out += `${prefix}${keyText(key)}: ${inlineText(item)}\n`;
      prefix = indent;
    }
  };
  block(document, '', '');
  return out === '' ? '{}\n' : out;
}
