// The Xray JSON array v2rayN, v2rayNG and Happ import: one complete config per server, built from the template.
import { isObject, parseJsonObject, type Json, type Named, type Parsed, type Renderer } from './renderer.js';
import { xrayOutbound } from './xray-outbound.js';

interface XrayTemplate {
  names: string[];
  /** The template config as JSON around the two holes: before the name, between name and outbound, after. */
  parts: [string, string, string];
}

/** `{"tag": "proxy"}` without a protocol marks where the server's outbound goes. */
const isMarker = (outbound: Json): boolean => outbound.tag === 'proxy' && outbound.protocol === undefined;

const NAME_HOLE = '\u0000subweave-name\u0000';
const OUTBOUND_HOLE = '\u0000subweave-outbound\u0000';

function parseTemplate(text: string): Parsed<XrayTemplate> {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return parsed;
  const { document } = parsed;
  const { outbounds } = document;
  if (!Array.isArray(outbounds) || !outbounds.every(isObject))
    return { ok: false, problem: '`outbounds` is not an array of objects' };
  if (outbounds.filter(isMarker).length !== 1)
    return { ok: false, problem: '`outbounds` must hold exactly one {"tag": "proxy"} marker' };
  const names = outbounds.flatMap((outbound) => (typeof outbound.tag === 'string' ? [outbound.tag] : []));
  // Each config is the template text with the name and the outbound dropped in: one stringify for 5,000 servers.
  const { remarks: _remarks, ...rest } = document;
  const shaped = {
    remarks: NAME_HOLE,
    ...rest,
    outbounds: outbounds.map((outbound) => (isMarker(outbound) ? OUTBOUND_HOLE : outbound)),
  };
  const [head = '', middle = ''] = JSON.stringify(shaped).split(JSON.stringify(NAME_HOLE));
  const [between = '', tail = ''] = middle.split(JSON.stringify(OUTBOUND_HOLE));
  return { ok: true, template: { names, parts: [head, between, tail] } };
}

/** One config per line: 5,000 servers make megabytes of JSON, and indenting would double that. */
function render(servers: readonly Named<Json>[], template: XrayTemplate): string {
  if (servers.length === 0) return '[]\n';
  const [head, middle, tail] = template.parts;
  const configs = servers.map(({ item, name }) => head + JSON.stringify(name) + middle + JSON.stringify(item) + tail);
  return `[\n${configs.join(',\n')}\n]\n`;
}

export const xray: Renderer<XrayTemplate, Json> = {
  parseTemplate,
  templateNames: (template) => template.names,
  convert: xrayOutbound,
  render,
};
