// The one reader of proxy share URIs: the check sources are accepted by, the typed form all formats render from, and the canonical writing back.
import { inspect } from './check.js';
import type { ParseResult, ProxyNode } from '../proxy.js';
import { parseAnytls, writeAnytls } from './anytls.js';
import { type Draft, type Problem, hostPort, isProblem, percentDecode, problem, readAuthority } from './common.js';
import { parseHysteria, parseHysteria2, writeHysteria, writeHysteria2 } from './hysteria.js';
import { parseShadowsocks, writeShadowsocks } from './shadowsocks.js';
import { parseSocks, writeSocks } from './socks.js';
import { parseSsr, writeSsr } from './ssr.js';
import { parseTrojan, writeTrojan } from './trojan.js';
import { parseTuic, writeTuic } from './tuic.js';
import { parseVless, writeVless } from './vless.js';
import { parseVmessJson, parseVmessUri, writeVmess } from './vmess.js';
import { parseWireguard, writeWireguard } from './wireguard.js';

export { CONFIG_SCHEMES, isValidProxyUri, proxyUriProblem, renderConfig, uriReadings, vmessName } from './check.js';
export { decodeBase64Loose, encodeComment } from './text.js';

/**
 * Parses one line (a share URI, optionally `#name`). Only lines the source validator accepts are read; the name is
 * the percent-decoded fragment (or vmess `ps`, ssr `remarks`), and `<protocol> <host>:<port>` when that is empty.
 * Never throws: anything unusable is `{ok: false, reason}`.
 */
export function parseShareUri(line: string): ParseResult {
  const text = line.trim();
  const hash = text.indexOf('#');
  const identity = (hash < 0 ? text : text.slice(0, hash)).trim();
  const name = hash < 0 ? '' : percentDecode(text.slice(hash + 1)).trim();
  const inspection = inspect(identity);
  if (!inspection.ok) return { ok: false, reason: inspection.problem };
  const scheme = identity.slice(0, identity.indexOf('://')).toLowerCase();
  const body = identity.slice(scheme.length + 3);
  const draft = inspection.vmessJson ? parseVmessJson(inspection.vmessJson, name) : parseBody(scheme, body, name);
  if (isProblem(draft)) return { ok: false, reason: draft.problem };
  const node = { ...draft, uri: text } as ProxyNode;
  if (node.name === '') node.name = `${node.protocol} ${hostPort(node.server, node.port)}`;
  return { ok: true, node };
}

function parseBody(scheme: string, body: string, name: string): Draft | Problem {
  switch (scheme) {
    case 'vmess':
      return parseVmessUri(body, name);
    case 'ss':
      return parseShadowsocks(body, name);
    case 'ssr':
      return parseSsr(body, name);
    case 'juicity':
      return problem('juicity is not supported by mihomo, sing-box or Xray');
  }
  const link = readAuthority(scheme, body);
  if (isProblem(link)) return link;
  switch (scheme) {
    case 'vless':
      return parseVless(link, name);
    case 'trojan':
      return parseTrojan(link, name);
    case 'hysteria':
      return parseHysteria(link, name);
    case 'hysteria2':
    case 'hy2':
      return parseHysteria2(link, name);
    case 'tuic':
      return parseTuic(link, name);
    case 'wireguard':
    case 'wg':
      return parseWireguard(link, name);
    case 'socks':
    case 'socks5':
      return parseSocks(link, name);
    case 'anytls':
      return parseAnytls(link, name);
    default:
      return problem(`unsupported scheme '${scheme}'`);
  }
}

/** The canonical share URI of a node (`uri` is ignored); parsing it gives the node back. */
export function toShareUri(node: ProxyNode): string {
  switch (node.protocol) {
    case 'vless':
      return writeVless(node);
    case 'vmess':
      return writeVmess(node);
    case 'trojan':
      return writeTrojan(node);
    case 'shadowsocks':
      return writeShadowsocks(node);
    case 'shadowsocksr':
      return writeSsr(node);
    case 'hysteria':
      return writeHysteria(node);
    case 'hysteria2':
      return writeHysteria2(node);
    case 'tuic':
      return writeTuic(node);
    case 'wireguard':
      return writeWireguard(node);
    case 'socks':
      return writeSocks(node);
    case 'anytls':
      return writeAnytls(node);
  }
}
