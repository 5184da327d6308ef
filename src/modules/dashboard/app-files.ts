// The built dashboard (dist/app, from `npm run build`) read into memory once: index.html and every hashed asset with
// its brotli and gzip forms (written by scripts/compress-app.mjs).
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/app beside the server's own files: both src/modules/dashboard and dist/modules/dashboard are three levels down. */
export const DEFAULT_APP_DIR = fileURLToPath(new URL('../../../dist/app/', import.meta.url));

/** What Vite writes on its tags and in <meta property="csp-nonce"> (web/vite.config.ts); replaced per answer. */
export const NONCE_PLACEHOLDER = 'SUBWEAVE_CSP_NONCE';

export type Encoding = 'br' | 'gzip';

export interface Asset {
  type: string;
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

export interface AppFiles {
  index: string;
  assets: Map<string, Asset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Null while the app is not built (no index.html). */
export async function readAppFiles(dir: string): Promise<AppFiles | null> {
  let index: string;
  try {
    index = await readFile(join(dir, 'index.html'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const assetsDir = join(dir, 'assets');
  const names = await readdir(assetsDir).catch(() => [] as string[]);
  const present = new Set(names);
  const optional = (name: string) => (present.has(name) ? readFile(join(assetsDir, name)) : Promise.resolve(null));
  const assets = new Map<string, Asset>();
  for (const name of names) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const [identity, br, gzip] = await Promise.all([
      readFile(join(assetsDir, name)),
      optional(`${name}.br`),
      optional(`${name}.gz`),
    ]);
    assets.set(name, { type: TYPES[extname(name)] ?? 'application/octet-stream', identity, br, gzip });
  }
  return { index, assets };
}

/**
 * The precompressed form to send for an Accept-Encoding header: brotli when accepted, else gzip, else none. A coding
 * with q=0 is refused; `*` accepts both.
 */
export function pickEncoding(acceptEncoding: string | undefined, asset: Asset): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    accepted.set(coding, q ? Number(q.slice(2)) : 1);
  }
  const allows = (coding: string) => {
    const q = accepted.get(coding) ?? accepted.get('*');
    return q !== undefined && q > 0;
  };
  if (asset.br && allows('br')) return 'br';
  if (asset.gzip && allows('gzip')) return 'gzip';
  return null;
}
