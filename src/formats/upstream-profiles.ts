// Upstreams may serve a Clash/mihomo YAML or sing-box JSON profile instead of share links; this turns its servers into share URIs (docs/api.md, External sources and refresh).
import type { ProxyNode } from './proxy.js';
import { parseShareUri, toShareUri } from './share-uri/index.js';
import { MIHOMO_IGNORED_TYPES, mihomoProxyNode } from './upstream/mihomo-proxy.js';
import { SING_BOX_IGNORED_TYPES, singBoxNode } from './upstream/sing-box-outbound.js';
import { type Dict, dict, text } from './upstream/values.js';
import { hasProxiesKey, yamlProxies } from './upstream/yaml-proxies.js';
import { StructureRefused, structureProblem } from './upstream/structure-scan.js';

export interface ProfileLimits {
  /** Larger bodies are not read as profiles (FETCH_MAX_BYTES). */
  maxBytes: number;
  /** Servers looked at; later ones count as skipped (MAX_RESOLVED_CONFIGS). */
  maxProxies: number;
}

export const DEFAULT_PROFILE_LIMITS: ProfileLimits = { maxBytes: 5_242_880, maxProxies: 2000 };

export interface ProfileUris {
  uris: string[];
  /** Entries that are servers but cannot travel as a share URI (unsupported type or field), or were past the cap. */
  skipped: number;
}

/**
 * The share URIs of the servers in a Clash/mihomo profile (`proxies`) or a sing-box profile (`outbounds`,
 * `endpoints`); null when the body is neither. Groups and non-server outbounds are left out without being counted.
 * YAML is only parsed when a line opens a top-level `proxies` key, so share-link bodies never reach the YAML parser.
 * Throws StructureRefused, before any parser runs, for a document nested too deep or with too many aliases.
 */
export function profileShareUris(body: string, limits: ProfileLimits = DEFAULT_PROFILE_LIMITS): ProfileUris | null {
  if (body.length > limits.maxBytes || Buffer.byteLength(body, 'utf8') > limits.maxBytes) return null;
  const text = body.replace(/^\uFEFF/, '');
  const json = text.trimStart().startsWith('{');
  if (!json && !hasProxiesKey(text)) return null;
  const problem = structureProblem(text, json);
  if (problem !== null) throw new StructureRefused(problem);
  if (!json) {
    const yaml = yamlProxies(text, limits.maxProxies);
    return yaml && collect(yaml.entries, MIHOMO_IGNORED_TYPES, mihomoProxyNode, limits, yaml.cut);
  }
  const document = parseJson(text);
  if (document === undefined) return null;
  if (Array.isArray(document.proxies)) {
    return collect(document.proxies, MIHOMO_IGNORED_TYPES, mihomoProxyNode, limits, 0);
  }
  if (!Array.isArray(document.outbounds) && !Array.isArray(document.endpoints)) return null;
  const outbounds = Array.isArray(document.outbounds) ? document.outbounds : [];
  const endpoints = Array.isArray(document.endpoints) ? document.endpoints : [];
  return collect([...outbounds, ...endpoints], SING_BOX_IGNORED_TYPES, singBoxNode, limits, 0);
}

function parseJson(text: string): Dict | undefined {
  try {
    return dict(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function collect(
  entries: unknown[],
  ignoredTypes: ReadonlySet<string>,
  toNode: (entry: unknown) => ProxyNode | null,
  limits: ProfileLimits,
  cut: number,
): ProfileUris {
  const servers = entries.filter((entry) => !ignoredTypes.has(text(dict(entry)?.type)?.toLowerCase() ?? ''));
  const uris: string[] = [];
  let skipped = cut + Math.max(0, servers.length - limits.maxProxies);
  for (const entry of servers.slice(0, limits.maxProxies)) {
    const uri = shareUriOf(toNode(entry));
    if (uri === null) skipped++;
    else uris.push(uri);
  }
  return { uris, skipped };
}

/** The node's share URI, only when it reads back as a node: the share-URI parser holds every validity rule. */
function shareUriOf(node: ProxyNode | null): string | null {
  if (node === null) return null;
  const uri = toShareUri(node);
  return parseShareUri(uri).ok ? uri : null;
}
