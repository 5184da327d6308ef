// The sing-box 1.12+ JSON profile (or its 1.11 form): the template with servers appended to `outbounds` (WireGuard to `endpoints`).
import { SERVERS_MARKER } from './builtin-templates.js';
import {
  expandMarker,
  isObject,
  parseJsonObject,
  type Json,
  type Named,
  type Parsed,
  type Renderer,
  type RenderOptions,
} from './renderer.js';
import { singBoxLegacyTemplate } from './sing-box-legacy.js';
import { singBoxOutbound, type SingBoxItem } from './sing-box-outbound.js';

interface SingBoxTemplate {
  document: Json;
  names: string[];
  /** The document rewritten for sing-box 1.10 and 1.11, made on first use. */
  legacy?: Json;
}

const isGroup = (outbound: Json): boolean => outbound.type === 'selector' || outbound.type === 'urltest';

function parseTemplate(text: string): Parsed<SingBoxTemplate> {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return parsed;
  const { document } = parsed;
  const { outbounds, endpoints = [] } = document;
  if (!Array.isArray(outbounds) || !outbounds.every(isObject))
    return { ok: false, problem: '`outbounds` is not an array of objects' };
  if (!Array.isArray(endpoints) || !endpoints.every(isObject))
    return { ok: false, problem: '`endpoints` is not an array of objects' };
  const names = [...outbounds, ...endpoints].flatMap((entry) => (typeof entry.tag === 'string' ? [entry.tag] : []));
  // An empty group falls back to `direct`, which render adds when the template has no direct outbound.
  if (!outbounds.some((outbound) => outbound.type === 'direct' && typeof outbound.tag === 'string'))
    names.push('direct');
  const marked = outbounds.some(
    (outbound) => isGroup(outbound) && Array.isArray(outbound.outbounds) && outbound.outbounds.includes(SERVERS_MARKER),
  );
  if (!marked) return { ok: false, problem: `no selector or urltest outbound lists "${SERVERS_MARKER}"` };
  return { ok: true, template: { document, names } };
}

function render(servers: readonly Named<SingBoxItem>[], template: SingBoxTemplate, options: RenderOptions): string {
  const document =
    options.variant === 'sing-box-1.11'
      ? (template.legacy ??= singBoxLegacyTemplate(template.document))
      : template.document;
  const names = servers.map((server) => server.name);
  const templateOutbounds = document.outbounds as Json[];
  const direct = templateOutbounds.find((outbound) => outbound.type === 'direct' && typeof outbound.tag === 'string');
  const fallback = (direct?.tag as string | undefined) ?? 'direct';
  const outbounds: Json[] = templateOutbounds.map((outbound) =>
    isGroup(outbound) && Array.isArray(outbound.outbounds)
      ? { ...outbound, outbounds: expandMarker(outbound.outbounds, SERVERS_MARKER, names, fallback) }
      : outbound,
  );
  // A group left with only the fallback needs a `direct` outbound to point at, which the template may not have.
  const needsDirect =
    !templateOutbounds.some((outbound) => outbound.tag === fallback) &&
    outbounds.some((outbound) => Array.isArray(outbound.outbounds) && outbound.outbounds.includes(fallback));
  const endpoints: Json[] = [...((document.endpoints ?? []) as Json[])];
  for (const { item, name } of servers) {
    const entry = item.value;
    entry.tag = name;
    if (item.kind === 'endpoint') endpoints.push(entry);
    else outbounds.push(entry);
  }
  if (needsDirect) outbounds.push({ type: 'direct', tag: fallback });
  const out: Json = { ...document, outbounds };
  if (endpoints.length > 0 || document.endpoints !== undefined) out.endpoints = endpoints;
  return `${JSON.stringify(out, null, 2)}\n`;
}

export const singBox: Renderer<SingBoxTemplate, SingBoxItem> = {
  parseTemplate,
  templateNames: (template) => template.names,
  convert: singBoxOutbound,
  render,
};
