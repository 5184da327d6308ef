// Builds what `npm start` needs when it is missing or older than its sources, so a fresh clone just starts: the
// server (dist/, from src/) and the dashboard (dist/app/, from web/). `node scripts/ensure-build.mjs app` checks the
// dashboard only (the browser tests use this).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path) {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when `stamp` is missing or older than any of `sources`. */
const stale = (stamp, sources) => !existsSync(stamp) || Math.max(...sources.map(newestMtime)) > statSync(stamp).mtimeMs;

const run = (script, args, env = process.env) =>
  execFileSync(process.execPath, [script, ...args], { stdio: 'inherit', env });

const only = process.argv[2];
if (only !== 'app' && stale('dist/cli.js', ['src', 'package.json', 'tsconfig.build.json'])) {
  console.error('subweave: building dist/ ...');
  run('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
}
// scripts/compress-app.mjs writes dist/app/build.json last: it exists only after a complete build.
if (stale('dist/app/build.json', ['web', 'package.json', 'scripts/compress-app.mjs'])) {
  console.error('subweave: building dist/app/ (the dashboard) ...');
  // Vite keeps a NODE_ENV it inherits: under vitest (NODE_ENV=test) that was React's development build, 40% larger.
  run('node_modules/vite/bin/vite.js', ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    ...process.env,
    NODE_ENV: 'production',
  });
  run('scripts/compress-app.mjs', []);
}
