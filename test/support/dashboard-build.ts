// Builds dist/app (the dashboard) when it is missing or older than web/, so browser suites run on a fresh clone.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function ensureDashboardBuilt(): void {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs', 'app'], { cwd: ROOT, stdio: 'inherit' });
}
