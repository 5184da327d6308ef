// Writes .br and .gz beside every hashed asset of dist/app/assets, and prints the JavaScript a first visit loads
// (the entry script and the modules it preloads), gzip-compressed, against the 250 KB budget (docs/dashboard.md);
// dist/app/build.json records it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const APP = 'dist/app';
const ASSETS = join(APP, 'assets');
const BUDGET_BYTES = 250 * 1024;

const gzipSizes = new Map();
for (const name of readdirSync(ASSETS)) {
  if (name.endsWith('.br') || name.endsWith('.gz')) continue;
  const raw = readFileSync(join(ASSETS, name));
  const gz = gzipSync(raw, { level: 9 });
  const br = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  writeFileSync(join(ASSETS, `${name}.gz`), gz);
  writeFileSync(join(ASSETS, `${name}.br`), br);
  gzipSizes.set(name, gz.length);
}

// index.html names what a first visit loads: <script type="module" src> and <link rel="modulepreload" href>.
const html = readFileSync(join(APP, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/app\/assets\/([^"]+\.js)"/g)].map((match) => match[1]);
const total = initial.reduce((sum, name) => sum + (gzipSizes.get(name) ?? 0), 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`dashboard: ${gzipSizes.size} assets precompressed (br, gz)`);
console.log(`dashboard: initial JavaScript ${kb(total)} gzip (${initial.join(', ')}); budget ${kb(BUDGET_BYTES)}`);
// Last, so its presence means a complete build (scripts/ensure-build.mjs checks it).
writeFileSync(join(APP, 'build.json'), `${JSON.stringify({ initialJsGzipBytes: total, initial }, null, 2)}\n`);
if (total > BUDGET_BYTES) {
  console.error('dashboard: initial JavaScript is over budget');
  process.exitCode = 1;
}
