// Rewrites a sing-box 1.12 template into the form sing-box 1.10 and 1.11 load: legacy DNS servers, no domain resolvers.
import { isObject, type Json } from './renderer.js';

/** Typed DNS servers that have a legacy `address` scheme (sing-box docs/migration.md, 1.12.0). */
const SCHEMES: Readonly<Record<string, string>> = {
  udp: 'udp',
  tcp: 'tcp',
  tls: 'tls',
  quic: 'quic',
  https: 'https',
  h3: 'h3',
};

const hostPort = (server: string, port: unknown): string => {
  const host = server.includes(':') ? `[${server}]` : server;
  return typeof port === 'number' ? `${host}:${port}` : host;
};

/** The legacy `address` of a typed server, or null when 1.11 has no form for it (hosts, tailscale, resolved). */
function legacyAddress(server: Json): string | null {
  const type = server.type;
  if (type === 'local') return 'local';
  if (type === 'fakeip') return 'fakeip';
  if (type === 'dhcp') return `dhcp://${typeof server.interface === 'string' ? server.interface : 'auto'}`;
  const scheme = typeof type === 'string' ? SCHEMES[type] : undefined;
  if (scheme === undefined || typeof server.server !== 'string') return null;
  const address = `${scheme}://${hostPort(server.server, server.server_port)}`;
  if (type !== 'https' && type !== 'h3') return address;
  return address + (typeof server.path === 'string' ? server.path : '/dns-query');
}

/** One typed server as a legacy one; its `domain_resolver` becomes `address_resolver` (and `address_strategy`). */
function legacyServer(server: Json): Json | null {
  if (server.type === undefined) return server; // already legacy
  const address = legacyAddress(server);
  if (address === null) return null;
  const out: Json = {};
  if (server.tag !== undefined) out.tag = server.tag;
  out.address = address;
  const resolver = server.domain_resolver;
  if (typeof resolver === 'string') out.address_resolver = resolver;
  else if (isObject(resolver)) {
    if (typeof resolver.server === 'string') out.address_resolver = resolver.server;
    if (typeof resolver.strategy === 'string') out.address_strategy = resolver.strategy;
  }
  if (server.detour !== undefined) out.detour = server.detour;
  return out;
}

function legacyDns(dns: Json): Json {
  if (!Array.isArray(dns.servers)) return dns;
  const servers: Json[] = [];
  const dropped = new Set<unknown>();
  let fakeip: Json | undefined;
  for (const server of dns.servers) {
    if (!isObject(server)) continue;
    const legacy = legacyServer(server);
    if (legacy === null) dropped.add(server.tag);
    else servers.push(legacy);
    if (server.type === 'fakeip') {
      fakeip = { enabled: true };
      if (server.inet4_range !== undefined) fakeip.inet4_range = server.inet4_range;
      if (server.inet6_range !== undefined) fakeip.inet6_range = server.inet6_range;
    }
  }
  const out: Json = { ...dns, servers };
  if (fakeip && dns.fakeip === undefined) out.fakeip = fakeip;
  if (dropped.size > 0) {
    // A rule or `final` naming a server 1.11 cannot have would fail the whole profile.
    if (Array.isArray(dns.rules)) out.rules = dns.rules.filter((rule) => !(isObject(rule) && dropped.has(rule.server)));
    if (dropped.has(dns.final)) delete out.final;
  }
  return out;
}

const withoutResolver = (entry: unknown): unknown => {
  if (!isObject(entry) || entry.domain_resolver === undefined) return entry;
  const { domain_resolver: _resolver, ...rest } = entry;
  return rest;
};

/** The template document for 1.10/1.11 apps; rendering then adds servers as for 1.12. */
export function singBoxLegacyTemplate(document: Json): Json {
  const out: Json = { ...document };
  if (isObject(document.dns)) out.dns = legacyDns(document.dns);
  if (isObject(document.route) && document.route.default_domain_resolver !== undefined) {
    const { default_domain_resolver: _resolver, ...route } = document.route;
    out.route = route;
  }
  if (Array.isArray(document.outbounds)) out.outbounds = document.outbounds.map(withoutResolver);
  if (Array.isArray(document.endpoints)) out.endpoints = document.endpoints.map(withoutResolver);
  return out;
}
