// The hosts of v2hub's external URLs that the API would refuse (private or internal addresses), checked once each.
import { checkPublicHost } from '../../net/ssrf.js';
import { parseUrl } from '../../net/url.js';
import type { V2hubData } from './v2hub.store.js';

/** At most this many lookups at a time, so a large import does not flood the resolver. */
const LOOKUPS_AT_ONCE = 16;

/** hostname -> why the API refuses it; empty when private addresses are allowed (FETCH_ALLOW_PRIVATE). */
export async function refusedHosts(data: V2hubData, allowPrivate: boolean): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  if (allowPrivate) return refused;
  const hosts = new Set<string>();
  for (const row of data.sources) {
    const url = row.external_url === null ? null : parseUrl(row.external_url.trim());
    if (url !== null && url.hostname !== '') hosts.add(url.hostname);
  }
  const pending = [...hosts];
  const worker = async (): Promise<void> => {
    for (let host = pending.pop(); host !== undefined; host = pending.pop()) {
      const verdict = await checkPublicHost(host);
      if (!verdict.ok) refused.set(host, verdict.reason);
    }
  };
  await Promise.all(Array.from({ length: LOOKUPS_AT_ONCE }, worker));
  return refused;
}
