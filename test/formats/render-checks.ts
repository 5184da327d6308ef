// What the clients would refuse that no published schema checks: duplicate names, dangling references, removed keys.
type Json = Record<string, unknown>;

const MIHOMO_BUILTIN = new Set(['DIRECT', 'REJECT', 'REJECT-DROP', 'PASS', 'COMPATIBLE']);

/** A base64url REALITY key of exactly 32 bytes, which mihomo, sing-box and Xray all require. */
const realityKeyOk = (key: unknown): boolean =>
  typeof key === 'string' && /^[A-Za-z0-9_-]{43}$/.test(key) && Buffer.from(key, 'base64url').length === 32;

function keysDeep(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) keysDeep(item, found);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) {
      found.push(key);
      keysDeep(item, found);
    }
  return found;
}

function duplicates(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => (seen.has(name) ? true : (seen.add(name), false)));
}

export function mihomoProblems(document: Json): string[] {
  const problems: string[] = [];
  const proxies = (document.proxies ?? []) as Json[];
  const groups = (document['proxy-groups'] ?? []) as Json[];
  const names = [...proxies, ...groups].map((entry) => String(entry.name));
  for (const name of duplicates(names)) problems.push(`duplicate name ${name}`);
  for (const name of names) if (MIHOMO_BUILTIN.has(name) || name === 'GLOBAL') problems.push(`reserved name ${name}`);
  const known = new Set([...names, ...MIHOMO_BUILTIN]);
  for (const group of groups)
    for (const entry of (group.proxies ?? []) as string[])
      if (!known.has(entry)) problems.push(`group ${String(group.name)} lists unknown ${entry}`);
  for (const rule of (document.rules ?? []) as string[]) {
    const parts = rule.split(',');
    const target = parts[0] === 'MATCH' ? parts[1] : parts[2];
    if (target === undefined || !known.has(target)) problems.push(`rule ${rule} targets unknown ${target}`);
  }
  for (const proxy of proxies) {
    if (!Number.isInteger(proxy.port)) problems.push(`${String(proxy.name)}: port is not an integer`);
    if (proxy.network === 'httpupgrade') problems.push(`${String(proxy.name)}: network httpupgrade`);
    const underscored = keysDeep(proxy).filter((key) => key.includes('_'));
    if (underscored.length) problems.push(`${String(proxy.name)}: keys with underscores ${underscored.join(',')}`);
    const reality = proxy['reality-opts'] as Json | undefined;
    if (reality && !realityKeyOk(reality['public-key'])) problems.push(`${String(proxy.name)}: REALITY key`);
    if (reality && !proxy['client-fingerprint']) problems.push(`${String(proxy.name)}: REALITY without fingerprint`);
  }
  return problems;
}

export function singBoxProblems(document: Json): string[] {
  const problems: string[] = [];
  const outbounds = (document.outbounds ?? []) as Json[];
  const endpoints = (document.endpoints ?? []) as Json[];
  const tags = [...outbounds, ...endpoints].map((entry) => String(entry.tag));
  for (const tag of duplicates(tags)) problems.push(`duplicate tag ${tag}`);
  const known = new Set(tags);
  for (const outbound of outbounds) {
    const name = String(outbound.tag);
    if (outbound.type === 'selector' || outbound.type === 'urltest')
      for (const entry of outbound.outbounds as string[])
        if (!known.has(entry)) problems.push(`${name} lists unknown ${entry}`);
    if (['wireguard', 'block', 'dns'].includes(String(outbound.type)))
      problems.push(`${name}: ${String(outbound.type)} outbound is removed in sing-box 1.13`);
    if ('server_port' in outbound && !Number.isInteger(outbound.server_port))
      problems.push(`${name}: server_port is not a number`);
    for (const ports of (outbound.server_ports ?? []) as string[])
      if (!/^\d+:\d+$/.test(ports)) problems.push(`${name}: server_ports entry ${ports} lacks ':'`);
    const tls = outbound.tls as Json | undefined;
    const reality = tls?.reality as Json | undefined;
    if (reality && !(tls?.utls as Json | undefined)?.enabled) problems.push(`${name}: REALITY without uTLS`);
    if (reality && !realityKeyOk(reality.public_key)) problems.push(`${name}: REALITY key`);
  }
  const route = (document.route ?? {}) as Json;
  if (typeof route.final === 'string' && !known.has(route.final)) problems.push(`route.final ${route.final} unknown`);
  for (const rule of (route.rules ?? []) as Json[])
    if (typeof rule.outbound === 'string' && !known.has(rule.outbound))
      problems.push(`route rule targets unknown ${rule.outbound}`);
  for (const server of ((document.dns as Json | undefined)?.servers ?? []) as Json[])
    if (typeof server.detour === 'string' && !known.has(server.detour))
      problems.push(`DNS server ${String(server.tag)} detours to unknown ${server.detour}`);
  return problems;
}

const XRAY_REMOVED_NETWORKS = new Set(['http', 'h2', 'quic', 'splithttp']);

export function xrayProblems(configs: Json[]): string[] {
  const problems: string[] = [];
  for (const remark of duplicates(configs.map((config) => String(config.remarks))))
    problems.push(`duplicate remarks ${remark}`);
  for (const config of configs) {
    const name = String(config.remarks);
    const outbounds = config.outbounds as Json[];
    const tags = outbounds.map((outbound) => String(outbound.tag));
    for (const tag of duplicates(tags)) problems.push(`${name}: duplicate outbound tag ${tag}`);
    const proxies = outbounds.filter((outbound) => outbound.tag === 'proxy');
    if (proxies.length !== 1 || typeof proxies[0]?.protocol !== 'string') problems.push(`${name}: no proxy outbound`);
    if (keysDeep(config).includes('allowInsecure')) problems.push(`${name}: allowInsecure`);
    for (const rule of ((config.routing as Json | undefined)?.rules ?? []) as Json[])
      if (typeof rule.outboundTag === 'string' && !tags.includes(rule.outboundTag))
        problems.push(`${name}: rule targets unknown ${rule.outboundTag}`);
    const stream = (proxies[0]?.streamSettings ?? {}) as Json;
    if (XRAY_REMOVED_NETWORKS.has(String(stream.network))) problems.push(`${name}: network ${String(stream.network)}`);
    if ('httpSettings' in stream || 'quicSettings' in stream) problems.push(`${name}: removed transport settings`);
    const reality = stream.realitySettings as Json | undefined;
    if (reality && !realityKeyOk(reality.publicKey)) problems.push(`${name}: REALITY key`);
  }
  return problems;
}
