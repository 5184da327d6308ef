// What makes two servers the same endpoint for `dedupe`: protocol, server, port and credentials, never the name or transport.
import type { ProxyNode } from '../../formats/proxy.js';

/** Equal for two nodes exactly when protocol, server (case-insensitive), port and credentials are equal. */
export function endpointKey(node: ProxyNode): string {
  return JSON.stringify([node.protocol, node.server.toLowerCase(), node.port, credentials(node)]);
}

function credentials(node: ProxyNode): readonly unknown[] {
  switch (node.protocol) {
    case 'vless':
    case 'vmess':
      return [node.uuid];
    case 'trojan':
    case 'hysteria2':
    case 'anytls':
      return [node.password];
    case 'shadowsocks':
      return [node.method, node.password];
    case 'shadowsocksr':
      return [node.method, node.password, node.protocolName, node.obfs];
    case 'hysteria':
      return [node.auth ?? null];
    case 'tuic':
      return [node.uuid ?? null, node.password ?? null, node.token ?? null];
    case 'wireguard':
      return [node.privateKey, node.publicKey, node.preSharedKey ?? null];
    case 'socks':
      return [node.username ?? null, node.password ?? null];
  }
}
