// The mihomo (Clash.Meta) YAML profile: the template with every server appended to `proxies` and listed in its groups.
import { parseDocument } from 'yaml';
import { SERVERS_MARKER } from './builtin-templates.js';
import { mihomoProxy } from './mihomo-proxy.js';
import { expandMarker, TOO_DEEP, type Named, type Parsed, type Renderer } from './renderer.js';
import { nestsDeeper, yamlNestsDeeper } from './template-depth.js';
import { FlowList, toYaml } from './yaml-emit.js';

type Proxy = Record<string, unknown>;
interface MihomoTemplate {
  document: Record<string, unknown>;
  names: string[];
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseTemplate(text: string): Parsed<MihomoTemplate> {
  if (yamlNestsDeeper(text)) return TOO_DEEP;
  const parsed = parseDocument(text, { prettyErrors: false });
  const [first] = parsed.errors;
  if (first) {
    // The line lets the admin console point at it (docs/dashboard.md).
    const line = text.slice(0, first.pos[0]).split('\n').length;
    return { ok: false, problem: `not valid YAML at line ${line}: ${first.message}` };
  }
  let document: unknown;
  try {
    document = parsed.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, problem: `not valid YAML: ${(error as Error).message}` };
  }
  if (!isMap(document)) return { ok: false, problem: 'the document is not a mapping' };
  // Aliases can nest what the text does not.
  if (nestsDeeper(document)) return TOO_DEEP;
  const proxies = document.proxies ?? [];
  const groups = document['proxy-groups'] ?? [];
  if (!Array.isArray(proxies) || !proxies.every(isMap))
    return { ok: false, problem: '`proxies` is not a list of maps' };
  if (!Array.isArray(groups) || !groups.every(isMap))
    return { ok: false, problem: '`proxy-groups` is not a list of maps' };
  const names: string[] = [];
  let marked = false;
  for (const entry of [...proxies, ...groups]) {
    if (typeof entry.name !== 'string') return { ok: false, problem: 'a proxy or proxy group has no name' };
    names.push(entry.name);
  }
  for (const group of groups) {
    if (group.proxies === undefined) continue;
    if (!Array.isArray(group.proxies))
      return { ok: false, problem: `group ${group.name} has proxies that are not a list` };
    if (group.proxies.includes(SERVERS_MARKER)) marked = true;
  }
  if (!marked) return { ok: false, problem: `no proxy group lists "${SERVERS_MARKER}"` };
  return { ok: true, template: { document, names } };
}

function render(servers: readonly Named<Proxy>[], template: MihomoTemplate): string {
  const names = servers.map((server) => server.name);
  // The converted maps are this render's own, and `name` is already their first key.
  const proxies = servers.map(({ item, name }) => Object.assign(item, { name }));
  const document = template.document;
  const groups = (document['proxy-groups'] ?? []) as Record<string, unknown>[];
  return toYaml({
    ...document,
    proxies: new FlowList([...((document.proxies ?? []) as unknown[]), ...proxies]),
    'proxy-groups': groups.map((group) =>
      Array.isArray(group.proxies)
        ? { ...group, proxies: expandMarker(group.proxies, SERVERS_MARKER, names, 'DIRECT') }
        : group,
    ),
  });
}

export const mihomo: Renderer<MihomoTemplate, Proxy> = {
  parseTemplate,
  templateNames: (template) => template.names,
  convert: mihomoProxy,
  render,
};
