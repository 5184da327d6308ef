// Turns v2hub's last good upstream bodies into subweave's stored config lines for the external URLs imported sources use.
import { createHash } from 'node:crypto';
import type { NewSource } from '../../db/types.js';
import { parseUpstreamLines } from '../fetch/content.js';
import { StructureRefused } from '../../formats/upstream/structure-scan.js';
import type { CacheContent, TargetKeys } from './target.store.js';
import type { V2hubData } from './v2hub.store.js';
import type { ImportReport } from './report.js';

export interface CacheRows {
  cacheKeys: string[];
  cacheContent: CacheContent[];
}

/**
 * `sources`: the new rows; `presentUrls`: external URLs of sources a previous import wrote (their content is added
 * when the target has none yet). Imported sources carry no fetch options, so a URL is its own fetch key. A v2hub row
 * is found by its URL, or by its url_hash, which is the v2hub id of the external sources using it.
 */
export async function mapCache(
  data: V2hubData,
  sources: NewSource[],
  presentUrls: string[],
  target: TargetKeys,
  report: ImportReport,
  options: { maxLines: number; now: string },
): Promise<CacheRows> {
  const cacheKeys = [...new Set(sources.filter((s) => s.source_type === 'external_url').map((s) => s.data))];
  const wanted = new Set([...cacheKeys, ...presentUrls]);
  const urlByV2hubId = new Map(
    data.sources.filter((s) => s.external_url !== null).map((s) => [s.id, (s.external_url as string).trim()]),
  );
  const fetched = new Set(target.fetchedUrls);
  const done = new Set<string>();
  const cacheContent: CacheContent[] = [];
  for (const row of data.cache) {
    const url = wanted.has(row.url.trim()) ? row.url.trim() : (urlByV2hubId.get(row.url_hash) ?? row.url.trim());
    if (fetched.has(url)) {
      report.alreadyPresent('external content');
      continue;
    }
    const problem = !wanted.has(url)
      ? 'no imported source uses this URL'
      : done.has(url)
        ? 'another v2hub row holds this URL'
        : row.raw_content === null
          ? 'never fetched by v2hub (the refresher fetches it)'
          : null;
    if (problem !== null || row.raw_content === null) {
      report.skip('external content', url, problem ?? 'never fetched');
      continue;
    }
    const lines = await parseUpstreamLines(row.raw_content, options.maxLines).catch((error: unknown) => {
      if (error instanceof StructureRefused) return null;
      throw error;
    });
    if (lines === null) {
      report.skip('external content', url, 'upstream_unparseable (the refresher fetches it)');
      continue;
    }
    if (lines.length === 0) {
      report.skip('external content', url, 'holds no config lines (the refresher fetches it)');
      continue;
    }
    const content = lines.join('\n');
    done.add(url);
    cacheContent.push({
      url,
      content,
      // The refresher's form: sha256 of the stored lines, base64url.
      contentHash: createHash('sha256').update(content).digest('base64url'),
      count: lines.length,
      fetchedAt: row.fetched_at ?? options.now,
    });
    report.add('external content');
  }
  // Content for a URL of a present source lands in a row that may not exist yet.
  return { cacheKeys: [...new Set([...cacheKeys, ...cacheContent.map((c) => c.url)])], cacheContent };
}
