// Runs axe-core inside a page and returns its serious and critical violations (the ones the pages must not have).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Injects axe through the DevTools protocol (the page's CSP admits no other script) and checks the whole document
 * with axe's full default rule set (every WCAG level it covers and its best practices).
 */
export async function seriousAxeViolations(page: Page): Promise<AxeProblem[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate<AxeProblem[]>(`axe.run(document, { resultTypes: ['violations'] }).then(function (result) {
      return result.violations
        .filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
        .map(function (v) {
          return { id: v.id, impact: v.impact, help: v.help,
            targets: v.nodes.map(function (n) { return String(n.target); }) };
        });
    })`);
}
