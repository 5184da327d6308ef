// web/src/api/schema.d.ts is what `npm run gen:api` writes from the server's OpenAPI document today: a route or schema
// changed without regenerating the dashboard's API types fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateApiTypes, SCHEMA_PATH } from '../../scripts/gen-api.js';

describe('dashboard API types', () => {
  it('match the OpenAPI document (run `npm run gen:api` when this fails)', async () => {
    const generated = await generateApiTypes();
    expect(generated).toContain('"/api/v1/subs"');
    expect(readFileSync(SCHEMA_PATH, 'utf8') === generated, 'web/src/api/schema.d.ts is stale').toBe(true);
  }, 60_000);
});
