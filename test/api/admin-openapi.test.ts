// The admin API's OpenAPI description: every operation tagged, summarised, secured by the signature scheme, every field described.
import { expect, it } from 'vitest';
import { describeEachDatabase, useTestApp } from '../support/harness.js';

interface Schema {
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  type?: string | string[];
}

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; description?: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
}

/** Dotted paths of object properties (at any depth) that carry no description. */
function undescribed(schema: Schema | undefined, at: string): string[] {
  if (!schema) return [];
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!property.description) missing.push(`${at}.${name}`);
    missing.push(...undescribed(property, `${at}.${name}`));
  }
  if (schema.items) missing.push(...undescribed(schema.items, `${at}[]`));
  return missing;
}

describeEachDatabase('admin API: OpenAPI', (kind) => {
  const t = useTestApp(kind, { ADMIN_SECRET: 'openapi-secret-of-at-least-32-characters' });

  it('documents the signature headers as security schemes', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json<{
      components: { securitySchemes: Record<string, { type: string; in: string; name: string; description: string }> };
    }>();
    const { adminSignature, adminTimestamp } = doc.components.securitySchemes;
    expect(adminSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Signature' });
    expect(adminSignature?.description).toMatch(/HMAC-SHA256/);
    expect(adminSignature?.description).toMatch(/X-Timestamp/);
    expect(adminTimestamp).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Timestamp' });
  });

  it('tags, describes and secures every admin operation and describes every field', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json<{ paths: Record<string, Record<string, Operation>> }>();
    const adminPaths = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/v1/admin/'));
    const operations = adminPaths.flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(17);
    const problems: string[] = [];
    for (const { name, op } of operations) {
      if (JSON.stringify(op.tags) !== JSON.stringify(['Admin']))
        problems.push(`${name}: tags ${JSON.stringify(op.tags)}`);
      if (!op.summary || !op.description) problems.push(`${name}: summary or description missing`);
      const schemes = op.security?.flatMap((s) => Object.keys(s)) ?? [];
      if (!schemes.includes('adminSignature') || !schemes.includes('adminTimestamp'))
        problems.push(`${name}: security ${JSON.stringify(op.security)}`);
      for (const parameter of op.parameters ?? []) {
        if (!parameter.description && !parameter.schema?.description)
          problems.push(`${name}: parameter ${parameter.name}`);
      }
      const body = op.requestBody?.content['application/json']?.schema;
      problems.push(...undescribed(body, `${name} body`));
      for (const [status, response] of Object.entries(op.responses)) {
        problems.push(...undescribed(response.content?.['application/json']?.schema, `${name} ${status}`));
      }
      for (const status of ['401', '403', '503'])
        if (!op.responses[status]) problems.push(`${name}: no ${status} response`);
    }
    expect(problems).toEqual([]);
  });
});
