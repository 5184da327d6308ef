// Every JSON chain docs/transforms.md shows is one the validator accepts, and the rename recipe does what it says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateTransforms } from '../../src/modules/transforms/validate.js';
import { named, run } from './servers.js';

const doc = readFileSync(new URL('../../docs/transforms.md', import.meta.url), 'utf8');
const chains = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as unknown);

describe('docs/transforms.md', () => {
  it('shows chains', () => {
    expect(chains.length).toBeGreaterThanOrEqual(6);
  });

  const recipes = chains.filter(
    (chain): chain is Array<Record<string, unknown>> => Array.isArray(chain) && !Object.hasOwn(chain[0] ?? {}, 'index'),
  );
  it.each(recipes.map((chain) => [JSON.stringify(chain), chain] as const))('%s validates', (_, chain) => {
    expect(validateTransforms(chain)).toHaveLength(chain.length);
  });

  it('renames "[Provider] JP-01" to "🇯🇵 Tokyo 1" with its recipe', () => {
    const recipe = chains.find(
      (chain) => JSON.stringify(chain).includes('"replace":"Tokyo $1"}') && Array.isArray(chain) && chain.length === 2,
    );
    expect(run(named('[Provider] JP-01'), recipe as unknown[]).names).toEqual(['🇯🇵 Tokyo 1']);
  });

  it('keeps only Japan and Singapore with its recipe', () => {
    const recipe = chains.find((chain) => JSON.stringify(chain).includes('japan|singapore'));
    expect(run(named('JP 01', 'sg-2', '日本 03', 'US 04', 'Japan 5', 'HK 6'), recipe as unknown[]).names).toEqual([
      'JP 01',
      'sg-2',
      '日本 03',
      'Japan 5',
    ]);
  });
});
