// Shadowsocks SIP008 online configuration: the Shadowsocks servers only, with a stable id per server.
import type { ProxyNode } from '../proxy.js';
import { type Converted, sip003Options, skip, uuidV5 } from './common.js';
import type { Named, Renderer } from './renderer.js';

type Json = Record<string, unknown>;

/** RFC 4122's URL namespace: a server's id is the version 5 UUID of its share URI, the same on every fetch. */
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

function convert(node: ProxyNode): Converted<Json> {
  if (node.protocol !== 'shadowsocks') return skip('SIP008 carries Shadowsocks servers only');
  const server: Json = {
    id: uuidV5(URL_NAMESPACE, node.uri),
    remarks: '',
    server: node.server,
    server_port: node.port,
    password: node.password,
    method: node.method,
  };
  if (node.plugin) {
    server.plugin = node.plugin.name;
    server.plugin_opts = sip003Options(node.plugin.options);
  }
  return { ok: true, value: server };
}

function render(servers: readonly Named<Json>[]): string {
  const list = servers.map(({ item, name }) => Object.assign(item, { remarks: name }));
  return `${JSON.stringify({ version: 1, servers: list }, null, 2)}\n`;
}

export const sip008: Renderer<null, Json> = {
  parseTemplate: () => ({ ok: true, template: null }),
  templateNames: () => [],
  convert,
  render,
};
