#!/usr/bin/env node
// The `subweave` bin: runs the built program (dist/cli.js), or says how to build it when this copy has no dist/ yet.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  const { run } = await import(cli.href);
  process.exitCode = await run(process.argv.slice(2), process.env, process);
} else {
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.stderr.write(
    `subweave: ${fileURLToPath(cli)} is missing: this copy has not been built yet.\n` +
      `Run \`npm ci && npm run build\` in ${root}, then try again (\`npm start\` builds by itself).\n`,
  );
  process.exitCode = 1;
}
