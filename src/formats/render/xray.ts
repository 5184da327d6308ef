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

function parseTemplate(text: string): Parsed<XrayTemplate> {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return parsed;
  const { document } = parsed;
  const { outbounds } = document;
  if (!Array.isArray(outbounds) || !outbounds.every(isObject))
    return { ok: false, problem: '`outbounds` is not an array of objects' };
  const at = outbounds.findIndex(isMarker);
  if (at < 0 || outbounds.findIndex((outbound, i) => i > at && isMarker(outbound)) >= 0)
    return { ok: false, problem: '`outbounds` must hold exactly one {"tag": "proxy"} marker' };
  const names = outbounds.flatMap((outbound) => (typeof outbound.tag === 'string' ? [outbound.tag] : []));
  // Each config is the template's JSON with the name and the outbound dropped in: one stringify for 5,000 servers.
  // The pieces are cut structurally, so no text in the template can pose as a hole.
  const field = (key: string, value: unknown): string => `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  const entries = Object.entries(document).filter(([key]) => key !== 'remarks');
  const split = entries.findIndex(([key]) => key === 'outbounds');
  const before = entries.slice(0, split).map(([key, value]) => `,${field(key, value)}`);
  const after = entries.slice(split + 1).map(([key, value]) => `,${field(key, value)}`);
  const earlier = outbounds.slice(0, at).map((outbound) => `${JSON.stringify(outbound)},`);
  const later = outbounds.slice(at + 1).map((outbound) => `,${JSON.stringify(outbound)}`);
  return {
    ok: true,
    template: {
      names,
      parts: [
        '{"remarks":',
        `${before.join('')},"outbounds":[${earlier.join('')}`,
        `${later.join('')}]${after.join('')}}`,
      ],
    },
  };
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
