// Builds dist/ before `npm start` when it is missing or older than any source file, so a fresh clone just starts.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const stamp = 'dist/cli.js';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sourcesChanged = () =>
  Math.max(newestMtime('src'), statSync('package.json').mtimeMs, statSync('tsconfig.build.json').mtimeMs) >
  statSync(stamp).mtimeMs;

if (!existsSync(stamp) || sourcesChanged()) {
  console.error('subweave: building dist/ ...');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
