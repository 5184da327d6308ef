// Runs a compiled transform chain over a subscription's resolved servers, counting what each operator let through.
import type { ProxyNode } from '../../formats/proxy.js';
import { fallbackName } from '../../formats/render/common.js';
import { lineIdentity } from '../resolve/resolver.js';
import { encodeComment, renderConfig } from '../../formats/share-uri/index.js';
import { endpointKey } from './endpoint.js';
import { withFlag } from './flag.js';
import { isInfoName } from './info-names.js';
import { MAX_NAME_LENGTH, type MatchField, type Operator, type OperatorName } from './operators.js';
import type { CompiledChain } from './validate.js';

/** One operator's effect, for the preview: servers before and after it. */
export interface TransformStep {
  index: number;
  op: OperatorName;
  in: number;
  out: number;
}

export interface TransformOutcome {
  /** The servers in their new order; a renamed server is a new object whose `uri` carries the new name. */
  servers: ProxyNode[];
  steps: TransformStep[];
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * Applies `chain` to at most `maxServers` servers (MAX_RESOLVED_CONFIGS; later ones are not read). Every operator is
 * one pass over the list (sort: one sort), so a chain costs O(operators x n log n) at worst.
 */
export function applyTransforms(
  servers: readonly ProxyNode[],
  chain: CompiledChain,
  maxServers: number,
): TransformOutcome {
  const given = servers.length > maxServers ? servers.slice(0, maxServers) : servers;
  let current: ProxyNode[] = [...given];
  const steps: TransformStep[] = [];
  chain.forEach(({ operator, pattern }, index) => {
    const before = current.length;
    current = step(current, operator, pattern);
    steps.push({ index, op: operator.op, in: before, out: current.length });
  });
  const unchanged = new Set(given);
  const result = current.map((node) => (unchanged.has(node) ? node : { ...node, uri: servedLine(node) }));
  return { servers: result, steps };
}

type Pattern = CompiledChain[number]['pattern'];

function step(servers: ProxyNode[], operator: Operator, pattern: Pattern): ProxyNode[] {
  switch (operator.op) {
    case 'include':
      return servers.filter((node) => pattern!.test(field(node, operator.field)));
    case 'exclude':
      return servers.filter((node) => !pattern!.test(field(node, operator.field)));
    case 'types': {
      const keep = new Set<string>(operator.keep);
      return servers.filter((node) => keep.has(node.protocol));
    }
    case 'rename':
      // A test first: the engine answers it without the capture machinery a replacement needs.
      return servers.map((node) =>
        pattern!.test(node.name)
          ? renamed(node, pattern!.replace(node.name, operator.replace, 2 * MAX_NAME_LENGTH))
          : node,
      );
    case 'prefix':
      return servers.map((node) => renamed(node, operator.text + node.name));
    case 'suffix':
      return servers.map((node) => renamed(node, node.name + operator.text));
    case 'flag':
      return servers.map((node) => renamed(node, withFlag(node.name)));
    case 'drop_info':
      return servers.filter((node) => !isInfoName(node.name));
    case 'sort': {
      const key = operator.by === 'type' ? 'protocol' : operator.by;
      const sign = operator.order === 'asc' ? 1 : -1;
      return servers.sort((a, b) => sign * collator.compare(a[key], b[key]));
    }
    case 'dedupe': {
      const seen = new Set<string>();
      const keyOf = operator.by === 'name' ? (node: ProxyNode) => node.name : endpointKey;
      return servers.filter((node) => {
        const key = keyOf(node);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    case 'limit':
      return servers.length > operator.count ? servers.slice(0, operator.count) : servers;
  }
}

/** The config line under the node's new name, written as the resolver writes a commented config line. */
function servedLine(node: ProxyNode): string {
  const identity = lineIdentity(node.uri);
  // Only a vmess link keeps its name inside (the JSON `ps`); every other scheme carries it as the #fragment.
  return identity.startsWith('vmess://') ? renderConfig(identity, node.name) : `${identity}#${fragment(node.name)}`;
}

/** encodeComment's percent-encoding (only RFC 3986 unreserved characters stay), through the native encoder. */
function fragment(name: string): string {
  try {
    return encodeURIComponent(name).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return encodeComment(name); // a lone surrogate, which encodeComment writes as U+FFFD
  }
}

function field(node: ProxyNode, name: MatchField): string {
  return name === 'type' ? node.protocol : node[name];
}

/** The node under `name`, cut to MAX_NAME_LENGTH code points; an emptied name falls back as the formats' does. */
function renamed(node: ProxyNode, name: string): ProxyNode {
  if (name === node.name) return node;
  let next = name.length > MAX_NAME_LENGTH ? Array.from(name).slice(0, MAX_NAME_LENGTH).join('') : name;
  if (next.trim() === '') next = fallbackName(node);
  return next === node.name ? node : { ...node, name: next };
}
