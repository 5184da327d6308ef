// Real parsed servers for the transform tests: share URIs read by the same parser the link uses.
import type { ProxyNode } from '../../src/formats/proxy.js';
import { parseShareUri } from '../../src/formats/share-uri/index.js';
import { compileTransforms } from '../../src/modules/transforms/validate.js';
import { applyTransforms } from '../../src/modules/transforms/apply.js';

export const UUID = '3f6c1a52-9d0e-4b7a-8c21-5e4f7a9b0c13';

export function parsed(line: string): ProxyNode {
  const result = parseShareUri(line);
  if (!result.ok) throw new Error(`test line does not parse: ${result.reason}`);
  return result.node;
}

interface Options {
  protocol?: 'trojan' | 'vless' | 'shadowsocks' | 'hysteria2';
  server?: string;
  port?: number;
  secret?: string;
}

/** One server named `name`; by default a trojan server on `<n>.example.com` with password `pw`. */
export function server(name: string, options: Options = {}): ProxyNode {
  const host = options.server ?? 'node.example.com';
  const port = options.port ?? 443;
  const secret = options.secret ?? 'pw';
  const fragment = `#${encodeURIComponent(name)}`;
  switch (options.protocol ?? 'trojan') {
    case 'trojan':
      return parsed(`trojan://${secret}@${host}:${port}${fragment}`);
    case 'vless':
      return parsed(`vless://${UUID}@${host}:${port}?security=tls&sni=${host}${fragment}`);
    case 'shadowsocks':
      return parsed(`ss://${Buffer.from(`aes-128-gcm:${secret}`).toString('base64url')}@${host}:${port}${fragment}`);
    case 'hysteria2':
      return parsed(`hysteria2://${secret}@${host}:${port}${fragment}`);
  }
}

/** Servers with these names on distinct hosts. */
export const named = (...names: string[]): ProxyNode[] =>
  names.map((name, i) => server(name, { server: `n${i}.example.com` }));

/** Applies an untrusted chain (validated first) and answers the resulting names. */
export function run(servers: readonly ProxyNode[], chain: unknown[], maxServers = 2000) {
  const outcome = applyTransforms(servers, compileTransforms(chain), maxServers);
  return { ...outcome, names: outcome.servers.map((node) => node.name) };
}
