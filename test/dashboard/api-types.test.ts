// web/src/api/schema.d.ts and values.ts are what `npm run gen:api` writes from the server's OpenAPI document today: a
// route or schema changed without regenerating the dashboard's API types and values fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../src/formats/proxy.js';
import { PROTOCOLS as DASHBOARD_PROTOCOLS } from '../../web/src/api/values.js';
import { generateApiFiles, SCHEMA_PATH, VALUES_PATH } from '../../scripts/gen-api.js';

describe('dashboard API types', () => {
  it('match the OpenAPI document (run `npm run gen:api` when this fails)', async () => {
    const { types, values } = await generateApiFiles();
    expect(types).toContain('"/api/v1/subs"');
    expect(readFileSync(SCHEMA_PATH, 'utf8') === types, 'web/src/api/schema.d.ts is stale').toBe(true);
    // The transforms editor's protocols are the server's list, in its order.
    expect(DASHBOARD_PROTOCOLS).toEqual(PROTOCOLS);
    expect(readFileSync(VALUES_PATH, 'utf8'), 'web/src/api/values.ts is stale').toBe(values);
  }, 60_000);
});
