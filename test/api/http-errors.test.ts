// HTTP-level contract (docs/api.md: Errors, Health and readiness, /docs): the error envelope on every non-2xx,
// body parsing limits, validation issues, request ids, OpenAPI, and hostile strings stored verbatim.
import { expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, useTestApp, type TestApp } from '../support/harness.js';
import { expectError, type ErrorEnvelope } from '../support/expect.js';

const SUBS = '/api/v1/subs';
const JSON_HEADERS = { 'content-type': 'application/json' };
const ONE_MIB = 1024 * 1024;
const config = (n: number): string => `trojan://secret@node${n}.example.org:443`;

interface Issue {
  path: string;
  message: string;
}

/** Asserts a 400 validation_failed whose details.issues are well-formed; returns the issues. */
function expectIssues(response: LightMyRequestResponse): Issue[] {
  const body = expectError(response, 400, 'validation_failed');
  const issues = body.details?.['issues'] as Issue[];
  expect(Array.isArray(issues)).toBe(true);
  expect(issues.length).toBeGreaterThan(0);
  for (const issue of issues) {
    expect(Object.keys(issue).sort()).toEqual(['message', 'path']);
    expect(typeof issue.path).toBe('string');
    expect(issue.message.length).toBeGreaterThan(0);
  }
  return issues;
}

async function userWithSubscription(t: TestApp) {
  const user = await t.newUser();
  const response = await t.call('POST', SUBS, { token: user.token, body: { name: 'base', sources: [config(1)] } });
  expect(response.statusCode, response.body).toBe(201);
  return { ...user, sub: response.json<{ token: string; sources: Array<{ id: string }> }>() };
}

/** GET that follows up to 5 redirects (relative Location headers included). */
async function getFollowingRedirects(t: TestApp, url: string): Promise<LightMyRequestResponse> {
  let current = url;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await t.call('GET', current);
    if (response.statusCode < 300 || response.statusCode >= 400) return response;
    const location = response.headers.location;
    expect(typeof location).toBe('string');
    current = new URL(location as string, `http://localhost${current}`).pathname;
  }
  throw new Error(`more than 5 redirects from ${url}`);
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

type JsonSchema = {
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** Paths (`a.b.c`) of object properties, at any depth, that carry no non-empty description. */
function undocumentedProperties(schema: JsonSchema | undefined, at: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (typeof property.description !== 'string' || property.description.trim() === '') missing.push(`${at}.${name}`);
    missing.push(...undocumentedProperties(property, `${at}.${name}`));
  }
  const items = schema.items === undefined ? [] : Array.isArray(schema.items) ? schema.items : [schema.items];
  for (const item of items) missing.push(...undocumentedProperties(item, `${at}[]`));
  for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    missing.push(...undocumentedProperties(variant, at));
  }
  return missing;
}

describeEachDatabase('http: routing errors', (kind) => {
  const t = useTestApp(kind);

  it.each([
    ['GET', '/api/v1/nope'],
    ['DELETE', '/nope'],
    ['GET', '/api/v2/subs'],
    ['POST', '/api/v1/subs/abc/unknown'],
  ] as const)('answers 404 not_found for an unknown route: %s %s', async (method, url) => {
    expectError(await t.call(method, url), 404, 'not_found');
  });

  it.each([
    ['PUT', SUBS, ['GET', 'POST']],
    ['DELETE', SUBS, ['GET', 'POST']],
    ['PUT', `${SUBS}/abc`, ['GET', 'PATCH', 'DELETE']],
    ['POST', `${SUBS}/abc`, ['GET', 'PATCH', 'DELETE']],
    ['GET', `${SUBS}/abc/sources`, ['POST', 'PUT', 'DELETE']],
    ['GET', `${SUBS}/abc/refresh`, ['POST']],
    ['POST', '/healthz', ['GET']],
  ] as const)('answers 405 method_not_allowed with Allow for %s %s', async (method, url, expected) => {
    const { token } = await t.newUser();
    const response = await t.call(method, url, { token });
    const body = expectError(response, 405, 'method_not_allowed');
    const allow = String(response.headers.allow ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    expect(allow).toEqual(expect.arrayContaining([...expected]));
    expect(allow).not.toContain(method);
    expect(body.details?.['allowed']).toEqual(allow);
  });

  it('answers 404 (not 414) in the envelope for an over-long path segment', async () => {
    const { token } = await t.newUser();
    const response = await t.call('GET', `${SUBS}/${'a'.repeat(600)}`, { token });
    // docs/api.md answers subscription_not_found for malformed tokens; past the router's 500-character limit the route is
    // never reached, so the generic not_found is the nearest answer.
    const code = response.json<ErrorEnvelope>().error;
    expect(['not_found', 'subscription_not_found']).toContain(code);
    expectError(response, 404, code);
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('answers 400 in the envelope for a path with broken percent-encoding', async () => {
    const response = await t.call('GET', `${SUBS}/%E0%A4%A`, { token: 'x' });
    expectError(response, 400, 'bad_request');
    expect(response.headers['x-request-id']).toBeTruthy();
  });
});

describeEachDatabase('http: request bodies', (kind) => {
  const t = useTestApp(kind);

  it.each([
    ['a truncated object', '{"name": "x"'],
    ['a trailing comma', '{"name": "x",}'],
    ['single quotes', "{'name': 'x'}"],
    ['bare words', 'name=x'],
    ['an unterminated string', '"abc'],
  ])('answers 400 invalid_json for %s', async (_label, raw) => {
    const { token } = await t.newUser();
    expectError(await t.call('POST', SUBS, { token, body: raw, headers: JSON_HEADERS }), 400, 'invalid_json');
    expect((await t.call('GET', SUBS, { token })).json()).toEqual([]);
  });

  it('answers 400 invalid_json for an empty body sent as application/json', async () => {
    const { token, sub } = await userWithSubscription(t);
    expectError(await t.call('POST', SUBS, { token, body: '', headers: JSON_HEADERS }), 400, 'invalid_json');
    expectError(
      await t.call('PATCH', `${SUBS}/${sub.token}`, { token, body: '', headers: JSON_HEADERS }),
      400,
      'invalid_json',
    );
  });

  it('accepts an empty body sent as application/json on an endpoint that takes no body', async () => {
    const { token, sub } = await userWithSubscription(t);
    const refreshed = await t.call('POST', `${SUBS}/${sub.token}/refresh`, { token, body: '', headers: JSON_HEADERS });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json()).toMatchObject({ failed: 0, total: expect.any(Number) });
    const removed = await t.call('DELETE', `${SUBS}/${sub.token}`, { token, body: '', headers: JSON_HEADERS });
    expect(removed.statusCode, removed.body).toBe(204);
  });

  it('still answers 400 invalid_json for a malformed body on an endpoint that takes no body', async () => {
    const { token, sub } = await userWithSubscription(t);
    expectError(
      await t.call('POST', `${SUBS}/${sub.token}/refresh`, { token, body: '{', headers: JSON_HEADERS }),
      400,
      'invalid_json',
    );
  });

  it('refuses a __proto__ key instead of parsing it', async () => {
    const { token } = await t.newUser();
    const raw = '{"name": "proto", "__proto__": {"isAdmin": true}}';
    expectError(await t.call('POST', SUBS, { token, body: raw, headers: JSON_HEADERS }), 400, 'invalid_json');
  });

  it('answers 413 payload_too_large above 1 MiB and still parses a body just under it', async () => {
    const { token } = await t.newUser();
    const frame = '{"name":"big","description":""}'.length;
    const fits = JSON.stringify({ name: 'big', description: 'a'.repeat(ONE_MIB - frame) });
    expect(Buffer.byteLength(fits)).toBe(ONE_MIB);
    // Parsed (so not 413), then refused for the description length.
    expect(
      expectIssues(await t.call('POST', SUBS, { token, body: fits, headers: JSON_HEADERS })).map((i) => i.path),
    ).toContain('body.description');
    const tooBig = JSON.stringify({ name: 'big', description: 'a'.repeat(ONE_MIB - frame + 1) });
    expectError(await t.call('POST', SUBS, { token, body: tooBig, headers: JSON_HEADERS }), 413, 'payload_too_large');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers 415 unsupported_media_type for a %s body',
    async (contentType) => {
      const { token } = await t.newUser();
      const response = await t.call('POST', SUBS, { token, body: 'name=x', headers: { 'content-type': contentType } });
      expectError(response, 415, 'unsupported_media_type');
      expect((await t.call('GET', SUBS, { token })).json()).toEqual([]);
    },
  );

  it('accepts application/json with a charset parameter', async () => {
    const { token } = await t.newUser();
    const response = await t.call('POST', SUBS, {
      token,
      body: JSON.stringify({ name: 'charset' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});

describeEachDatabase('http: validation failures', (kind) => {
  const t = useTestApp(kind);

  type Case = [
    label: string,
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    suffix: string,
    body: unknown,
    paths: string[],
  ];
  const cases: Case[] = [
    ['name of the wrong type', 'POST', '', { name: 5 }, ['body.name']],
    ['missing name', 'POST', '', { description: 'x' }, ['body.name']],
    ['an array instead of an object', 'POST', '', [{ name: 'x' }], ['body']],
    ['a source item of the wrong type', 'POST', '', { name: 'x', sources: [config(1), 42] }, ['body.sources.1']],
    [
      'a source object without data',
      'POST',
      '',
      { name: 'x', sources: [{ is_hidden: true }] },
      ['body.sources.0.data'],
    ],
    [
      'max_depth out of range',
      'POST',
      '',
      { name: 'x', sources: [{ data: config(1), max_depth: 7 }] },
      ['body.sources.0.max_depth'],
    ],
    [
      'is_hidden as a string',
      'POST',
      '',
      { name: 'x', sources: [{ data: config(1), is_hidden: 'yes' }] },
      ['body.sources.0.is_hidden'],
    ],
    ['description too long on patch', 'PATCH', '/:token', { description: 'x'.repeat(65) }, ['body.description']],
    ['no sources on add', 'POST', '/:token/sources', { sources: [] }, ['body.sources']],
    ['missing sources on replace', 'PUT', '/:token/sources', {}, ['body.sources']],
    ['empty source_ids', 'DELETE', '/:token/sources', { source_ids: [] }, ['body.source_ids']],
    [
      'bad config fields',
      'PATCH',
      '/:token/config',
      { config_id: '', max_depth: -1, is_hidden: 1 },
      ['body.config_id', 'body.max_depth', 'body.is_hidden'],
    ],
    ['comment too long', 'PATCH', '/:token/comments', { config_id: 'abc', comment: 'c'.repeat(257) }, ['body.comment']],
  ];

  it.each(cases)(
    'answers 400 (never 422) validation_failed naming the field: %s',
    async (_label, method, suffix, body, paths) => {
      const { token, sub } = await userWithSubscription(t);
      const url = `${SUBS}${suffix.replace(':token', sub.token)}`;
      const response = await t.call(method, url, { token, body });
      expect(response.statusCode).not.toBe(422);
      const issuePaths = expectIssues(response).map((issue) => issue.path);
      expect(issuePaths).toEqual(expect.arrayContaining(paths));
    },
  );

  it('reports every bad field of one request, not just the first', async () => {
    const { token } = await t.newUser();
    const response = await t.call('POST', SUBS, { token, body: { name: 1, description: 2, sources: 'x' } });
    expect(expectIssues(response).map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['body.name', 'body.description', 'body.sources']),
    );
  });
});

describeEachDatabase('http: request ids', (kind) => {
  const t = useTestApp(kind);

  it('sets x-request-id on success and error responses, unique per request', async () => {
    const { token } = await t.newUser();
    const responses = [
      await t.call('GET', SUBS, { token }),
      await t.call('POST', SUBS, { token, body: { name: 'rid' } }),
      await t.call('GET', SUBS),
      await t.call('GET', '/nope'),
      await t.call('PUT', SUBS, { token }),
      await t.call('POST', SUBS, { token, body: '{', headers: JSON_HEADERS }),
      await t.call('GET', '/healthz'),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 201, 401, 404, 405, 400, 200]);
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(typeof id === 'string' && id.length > 0).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes the x-request-id the client sends', async () => {
    const { token } = await t.newUser();
    const headers = { 'x-request-id': 'trace-4f2a-client' };
    expect((await t.call('GET', SUBS, { token, headers })).headers['x-request-id']).toBe('trace-4f2a-client');
    expect((await t.call('GET', '/nope', { headers })).headers['x-request-id']).toBe('trace-4f2a-client');
    expect((await t.call('GET', SUBS, { headers })).headers['x-request-id']).toBe('trace-4f2a-client');
  });
});

describeEachDatabase('http: probes and documentation', (kind) => {
  const t = useTestApp(kind);

  it('answers /healthz 200 {status: ok} without credentials', async () => {
    const response = await t.call('GET', '/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 while the database is reachable', async () => {
    const response = await t.call('GET', '/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: 'ok', redis: 'off' });
  });

  it('serves an OpenAPI 3 document with the subscription paths', async () => {
    const response = await t.call('GET', '/openapi.json');
    expect(response.statusCode).toBe(200);
    const doc = response.json<{
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBeTruthy();
    const expected: Record<string, string[]> = {
      [SUBS]: ['get', 'post'],
      [`${SUBS}/{token}`]: ['get', 'patch', 'delete'],
      [`${SUBS}/{token}/sources`]: ['post', 'put', 'delete'],
      [`${SUBS}/{token}/config`]: ['patch'],
      [`${SUBS}/{token}/comments`]: ['patch'],
      [`${SUBS}/{token}/refresh`]: ['post'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(doc.paths[path] ?? {}), path).toEqual(expect.arrayContaining(methods));
    }
    expect((doc.paths[`${SUBS}/{token}/comments`]?.['patch'] as { deprecated?: boolean }).deprecated).toBe(true);
  });

  it('describes every operation and every request body property', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json<{
      paths: Record<
        string,
        Record<string, { description?: string; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
      >;
    }>();
    const undescribed: string[] = [];
    const undocumented: string[] = [];
    let operations = 0;
    let bodies = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        operations += 1;
        if (typeof operation.description !== 'string' || operation.description.trim() === '')
          undescribed.push(`${method} ${path}`);
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
          bodies += 1;
          undocumented.push(...undocumentedProperties(media.schema, `${method} ${path} ${type} body`));
        }
      }
    }
    expect(operations).toBeGreaterThanOrEqual(11);
    expect(bodies).toBeGreaterThanOrEqual(7);
    expect(undescribed).toEqual([]);
    expect(undocumented).toEqual([]);
  });

  it('serves the documentation UI as HTML at /docs', async () => {
    const response = await getFollowingRedirects(t, '/docs');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body.toLowerCase()).toContain('<html');
  });
});

describeEachDatabase('http: hostile strings', (kind) => {
  const t = useTestApp(kind);

  const HOSTILE: Array<[string, string]> = [
    ['SQL injection', "'; DROP TABLE users; --"],
    ['SQL quotes', "Robert'); DELETE FROM subscriptions WHERE ('1'='1"],
    ['HTML script', '<script>alert("x")</script>'],
    ['RTL override', 'invoice\u202Egpj.exe'],
    ['4-byte characters', '😀🚀 𝕳𝖊𝖑𝖑𝖔'],
    ['ZWJ emoji sequence', '👨‍👩‍👧‍👦 family'],
    ['template and JNDI', '${jndi:ldap://evil/x} {{7*7}} %s'],
    ['escapes as text', '%00 %27 \\x00 \\u0000 \\'],
  ];

  it.each(HOSTILE)('stores and returns %s exactly in name and description', async (_label, text) => {
    const { token } = await t.newUser();
    const created = await t.call('POST', SUBS, { token, body: { name: text, description: text } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['content-type']).toMatch(/^application\/json/);
    const sub = created.json<{ token: string; name: string; description: string }>();
    expect([sub.name, sub.description]).toEqual([text, text]);

    const fetched = (await t.call('GET', `${SUBS}/${sub.token}`, { token })).json<{
      name: string;
      description: string;
    }>();
    expect([fetched.name, fetched.description]).toEqual([text, text]);
    const listed = (await t.call('GET', SUBS, { token })).json<Array<{ name: string; description: string }>>();
    expect(listed.map((item) => [item.name, item.description])).toEqual([[text, text]]);
    const row = await t.database.db
      .selectFrom('subscriptions')
      .select(['name', 'description'])
      .where('token', '=', sub.token)
      .executeTakeFirst();
    expect(row).toEqual({ name: text, description: text });

    const renamed = await t.call('PATCH', `${SUBS}/${sub.token}`, {
      token,
      body: { name: `${text}!`, description: `!${text}` },
    });
    expect(renamed.json<{ name: string; description: string }>()).toMatchObject({
      name: `${text}!`,
      description: `!${text}`,
    });
    expectError(await t.call('POST', SUBS, { token, body: { name: `${text}!` } }), 409, 'name_exists');
  });

  it('leaves the tables intact after injection-looking input', async () => {
    const before = await t.newUser();
    await t.call('POST', SUBS, { token: before.token, body: { name: "x'); DROP TABLE subscriptions; --" } });
    const users = await t.database.db
      .selectFrom('users')
      .select('user_id')
      .where('user_id', '=', before.userId)
      .execute();
    expect(users).toHaveLength(1);
    expect((await t.call('GET', SUBS, { token: before.token })).json()).toHaveLength(1);
  });

  it.each([
    ['NUL in the name', { name: 'a\u0000b' }, 'body.name'],
    ['NUL in the description', { name: 'ok', description: 'x\u0000' }, 'body.description'],
    ['NUL in a source', { name: 'ok', sources: [`${config(1)}#a\u0000b`] }, 'body.sources.0'],
    ['an unpaired surrogate in the name', { name: 'a\uD800b' }, 'body.name'],
    ['an unpaired surrogate in the description', { name: 'ok', description: '\uDC00' }, 'body.description'],
  ])('refuses %s with 400 validation_failed and stores nothing', async (_label, body, path) => {
    const { token } = await t.newUser();
    const issues = expectIssues(await t.call('POST', SUBS, { token, body }));
    expect(issues.map((issue) => issue.path)).toContain(path);
    expect((await t.call('GET', SUBS, { token })).json()).toEqual([]);
  });

  it('refuses NUL on patch and leaves the subscription unchanged', async () => {
    const { token, sub } = await userWithSubscription(t);
    const url = `${SUBS}/${sub.token}`;
    expect(expectIssues(await t.call('PATCH', url, { token, body: { name: 'n\u0000' } })).map((i) => i.path)).toContain(
      'body.name',
    );
    expect((await t.call('GET', url, { token })).json<{ name: string }>().name).toBe('base');
    const comment = await t.call('PATCH', `${url}/config`, {
      token,
      body: { config_id: sub.sources[0]?.id, comment: '\u0000' },
    });
    expect(expectIssues(comment).map((i) => i.path)).toContain('body.comment');
  });
});
