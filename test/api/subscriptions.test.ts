// HTTP contract of /api/v1/subs (docs/api.md: Subscriptions, Sources, Authentication): CRUD, limits, ownership and auth.
import { expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, TEST_BASE_URL, useTestApp, type TestApp } from '../support/harness.js';
import { TOKEN_RE, expectError } from '../support/expect.js';
import { sleep } from '../support/time.js';
import { text, useUpstream } from '../support/upstream-server.js';
import type { SubscriptionView as Subscription } from '../../src/modules/subscriptions/subscriptions.schemas.js';

const SUBS = '/api/v1/subs';
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const SUBSCRIPTION_KEYS = [
  'announce',
  'created_at',
  'description',
  'link',
  'links',
  'name',
  'provider_name',
  'sources',
  'sources_count',
  'support_url',
  'token',
  'transforms',
  'update_interval_hours',
  'updated_at',
  'userinfo',
  'web_page_url',
];
const LIST_ITEM_KEYS = [...SUBSCRIPTION_KEYS.filter((key) => key !== 'sources'), 'health'].sort();

type ListItem = Omit<Subscription, 'sources'> & {
  health: { sources: number; failing: number; shrink_pending: number };
};

/** A structurally valid trojan config whose host differs per `n`. */
const config = (n: number): string => `trojan://secret@node${n}.example.org:443`;
/** Well-formed (43 chars) but never issued. */
const unknownToken = (): string => 'Z'.repeat(43);

function issuePaths(response: LightMyRequestResponse): string[] {
  const body = expectError(response, 400, 'validation_failed');
  const issues = (body.details as { issues: Array<{ path: string; message: string }> }).issues;
  expect(Array.isArray(issues)).toBe(true);
  return issues.map((issue) => issue.path);
}

function create(t: TestApp, token: string, body: unknown) {
  return t.call('POST', SUBS, { token, body });
}

async function createOk(t: TestApp, token: string, body: Record<string, unknown>): Promise<Subscription> {
  const response = await create(t, token, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Subscription>();
}

async function getOk(t: TestApp, token: string, subToken: string): Promise<Subscription> {
  const response = await t.call('GET', `${SUBS}/${subToken}`, { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Subscription>();
}

async function listOk(t: TestApp, token: string): Promise<ListItem[]> {
  const response = await t.call('GET', SUBS, { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ListItem[]>();
}

function patch(t: TestApp, token: string, subToken: string, body: unknown) {
  return t.call('PATCH', `${SUBS}/${subToken}`, { token, body });
}

async function sourceRows(t: TestApp, subToken: string) {
  return t.database.db.selectFrom('sources').selectAll().where('subscription_token', '=', subToken).execute();
}

/** Every operation on one subscription, with a body that would succeed for its owner. */
function operationsOn(
  sub: Subscription,
): Array<{ name: string; method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; body?: unknown }> {
  const base = `${SUBS}/${sub.token}`;
  const configId = sub.sources[0]?.id ?? 'f'.repeat(32);
  return [
    { name: 'get', method: 'GET', url: base },
    { name: 'patch', method: 'PATCH', url: base, body: { name: 'Taken over', description: 'mine now' } },
    { name: 'delete', method: 'DELETE', url: base },
    { name: 'add sources', method: 'POST', url: `${base}/sources`, body: { sources: [config(900)] } },
    { name: 'replace sources', method: 'PUT', url: `${base}/sources`, body: { sources: [] } },
    { name: 'remove sources', method: 'DELETE', url: `${base}/sources`, body: { source_ids: [configId] } },
    {
      name: 'patch config',
      method: 'PATCH',
      url: `${base}/config`,
      body: { config_id: configId, comment: 'pwned', is_hidden: true, max_depth: 0 },
    },
    {
      name: 'patch comments',
      method: 'PATCH',
      url: `${base}/comments`,
      body: { config_id: configId, comment: 'pwned' },
    },
    { name: 'refresh', method: 'POST', url: `${base}/refresh` },
  ];
}
const OPERATION_NAMES = operationsOn({ token: 'x', sources: [] } as unknown as Subscription).map((op) => op.name);

describeEachDatabase('subscriptions: create', (kind) => {
  const t = useTestApp(kind);

  it('answers 201 with every field of the Subscription shape', async () => {
    const { token } = await t.newUser();
    const visible = 'vless://5f3c1a2b-1111-4222-8333-944455556666@example.com:443?security=tls#My%20Server';
    const response = await create(t, token, {
      name: '  Home  ',
      description: 'Phone and laptop',
      sources: [visible, { data: config(1), is_hidden: true, max_depth: 1 }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const sub = response.json<Subscription>();
    expect(Object.keys(sub).sort()).toEqual(SUBSCRIPTION_KEYS);
    expect(sub.token).toMatch(TOKEN_RE);
    expect(sub.name).toBe('Home');
    expect(sub.provider_name).toBeNull();
    expect(sub.description).toBe('Phone and laptop');
    expect(sub.created_at).toMatch(ISO_RE);
    expect(sub.updated_at).toBe(sub.created_at);
    expect(Math.abs(Date.parse(sub.created_at) - Date.now())).toBeLessThan(60_000);
    // The hidden config is not served by this subscription's own link.
    expect(sub.sources_count).toBe(1);
    expect(sub.sources.map((s) => [s.source_type, s.data, s.order_index, s.is_hidden, s.max_depth])).toEqual([
      ['config', visible, 0, false, 3],
      ['config', config(1), 1, true, 1],
    ]);
    expect(sub.sources[0]?.comment).toBe('My Server');
    for (const source of sub.sources) {
      expect(source.id).toMatch(/^[0-9a-f]{32}$/);
      expect(source.created_at).toMatch(ISO_RE);
    }
  });

  it('issues a distinct token per subscription and returns the stored state on GET', async () => {
    const { token } = await t.newUser();
    const first = await createOk(t, token, { name: 'one' });
    const second = await createOk(t, token, { name: 'two' });
    expect(first.token).not.toBe(second.token);
    expect(await getOk(t, token, first.token)).toEqual(first);
  });

  it('defaults sources to an empty list and description to null', async () => {
    const { token } = await t.newUser();
    const sub = await createOk(t, token, { name: 'Empty' });
    expect(sub.sources).toEqual([]);
    expect(sub.sources_count).toBe(0);
    expect(sub.description).toBeNull();
  });

  it('accepts an explicit null description', async () => {
    const { token } = await t.newUser();
    expect((await createOk(t, token, { name: 'n', description: null })).description).toBeNull();
  });

  it.each([
    ['ASCII', 'a'],
    ['Cyrillic (2-byte UTF-8)', 'я'],
    ['emoji (surrogate pair)', '😀'],
  ])('counts name length in code points: 64 %s characters pass, 65 fail', async (_label, char) => {
    const { token } = await t.newUser();
    expect((await createOk(t, token, { name: char.repeat(64) })).name).toBe(char.repeat(64));
    expect(issuePaths(await create(t, token, { name: char.repeat(65) }))).toContain('body.name');
  });

  it('trims the name before counting and stores it trimmed', async () => {
    const { token } = await t.newUser();
    const name = 'b'.repeat(64);
    expect((await createOk(t, token, { name: `  \t${name} \n` })).name).toBe(name);
  });

  it.each([
    ['empty', ''],
    ['whitespace only', ' \t\n '],
  ])('refuses a %s name with 400 validation_failed', async (_label, name) => {
    const { token } = await t.newUser();
    expect(issuePaths(await create(t, token, { name }))).toContain('body.name');
    expect(await listOk(t, token)).toEqual([]);
  });

  it.each([
    ['missing', {}],
    ['a number', { name: 5 }],
    ['null', { name: null }],
    ['an array', { name: ['x'] }],
  ])('refuses a name that is %s with 400 validation_failed naming body.name', async (_label, body) => {
    const { token } = await t.newUser();
    expect(issuePaths(await create(t, token, body))).toContain('body.name');
  });

  it.each([
    ['ASCII', 'd'],
    ['Cyrillic', 'ж'],
    ['emoji', '🚀'],
  ])('counts description length in code points: 64 %s characters pass, 65 fail', async (_label, char) => {
    const { token } = await t.newUser();
    expect((await createOk(t, token, { name: 'ok', description: char.repeat(64) })).description).toBe(char.repeat(64));
    expect(issuePaths(await create(t, token, { name: 'too long', description: char.repeat(65) }))).toContain(
      'body.description',
    );
  });

  it('refuses a description of the wrong type', async () => {
    const { token } = await t.newUser();
    expect(issuePaths(await create(t, token, { name: 'x', description: 42 }))).toContain('body.description');
  });

  it('accepts 150 sources and refuses 151 with 400 validation_failed', async () => {
    const { token } = await t.newUser();
    const sources = Array.from({ length: 151 }, (_, i) => config(i));
    const full = await createOk(t, token, { name: 'full', sources: sources.slice(0, 150) });
    expect(full.sources).toHaveLength(150);
    expect(full.sources.at(-1)?.order_index).toBe(149);
    expect(issuePaths(await create(t, token, { name: 'over', sources }))).toContain('body.sources');
    expect((await listOk(t, token)).map((s) => s.name)).toEqual(['full']);
  });

  it('refuses sources that is not an array', async () => {
    const { token } = await t.newUser();
    expect(issuePaths(await create(t, token, { name: 'x', sources: config(1) }))).toContain('body.sources');
  });

  it('answers 409 name_exists for a duplicate name, also when it differs only by surrounding spaces', async () => {
    const { token } = await t.newUser();
    await createOk(t, token, { name: 'Home' });
    expectError(await create(t, token, { name: 'Home' }), 409, 'name_exists');
    expectError(await create(t, token, { name: '  Home ' }), 409, 'name_exists');
    expect(await listOk(t, token)).toHaveLength(1);
  });

  it('compares names case-sensitively', async () => {
    const { token } = await t.newUser();
    await createOk(t, token, { name: 'Home' });
    expect((await createOk(t, token, { name: 'home' })).name).toBe('home');
  });

  it('keeps names unique per user only', async () => {
    const alice = await t.newUser();
    const bob = await t.newUser();
    const mine = await createOk(t, alice.token, { name: 'Shared' });
    const theirs = await createOk(t, bob.token, { name: 'Shared' });
    expect(theirs.token).not.toBe(mine.token);
  });
});

describeEachDatabase('subscriptions: per-user limit (default 3)', (kind) => {
  const t = useTestApp(kind);

  it('refuses the 4th subscription with 403 subscription_limit_reached and creates nothing', async () => {
    const { token } = await t.newUser();
    for (const name of ['a', 'b', 'c']) await createOk(t, token, { name });
    const body = expectError(await create(t, token, { name: 'd' }), 403, 'subscription_limit_reached');
    expect(body.details).toMatchObject({ max: 3 });
    expect((await listOk(t, token)).map((s) => s.name)).toEqual(['a', 'b', 'c']);
  });

  it('frees a slot when a subscription is deleted', async () => {
    const { token } = await t.newUser();
    const subs = [];
    for (const name of ['a', 'b', 'c']) subs.push(await createOk(t, token, { name }));
    expect((await t.call('DELETE', `${SUBS}/${subs[1]?.token}`, { token })).statusCode).toBe(204);
    await createOk(t, token, { name: 'd' });
    expectError(await create(t, token, { name: 'e' }), 403, 'subscription_limit_reached');
  });

  it('counts each user separately', async () => {
    const alice = await t.newUser();
    const bob = await t.newUser();
    for (const name of ['a', 'b', 'c']) await createOk(t, alice.token, { name });
    for (const name of ['a', 'b', 'c']) await createOk(t, bob.token, { name });
    expect(await listOk(t, bob.token)).toHaveLength(3);
  });
});

describeEachDatabase('subscriptions: MAX_SUBSCRIPTIONS_PER_USER=1', (kind) => {
  const t = useTestApp(kind, { MAX_SUBSCRIPTIONS_PER_USER: '1' });

  it('allows exactly one subscription per user', async () => {
    const alice = await t.newUser();
    await createOk(t, alice.token, { name: 'only' });
    const body = expectError(await create(t, alice.token, { name: 'second' }), 403, 'subscription_limit_reached');
    expect(body.details).toMatchObject({ max: 1 });
    const bob = await t.newUser();
    await createOk(t, bob.token, { name: 'only' });
  });
});

describeEachDatabase('subscriptions: list', (kind) => {
  const t = useTestApp(kind);

  it('returns an empty array for a user without subscriptions', async () => {
    const { token } = await t.newUser();
    expect(await listOk(t, token)).toEqual([]);
  });

  it("returns only the caller's subscriptions, oldest first, with the list item fields", async () => {
    const alice = await t.newUser();
    const bob = await t.newUser();
    const created: Subscription[] = [];
    // No pause between creates: order must hold even when timestamps tie.
    created.push(await createOk(t, alice.token, { name: 'zeta', sources: [config(1), config(2)] }));
    created.push(await createOk(t, alice.token, { name: 'alpha', description: 'second' }));
    created.push(await createOk(t, alice.token, { name: 'mid', sources: [{ data: config(3), is_hidden: true }] }));
    await createOk(t, bob.token, { name: 'bob only' });

    const list = await listOk(t, alice.token);
    expect(list.map((item) => item.token)).toEqual(created.map((sub) => sub.token));
    for (const [index, item] of list.entries()) {
      expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
      const { sources: _sources, ...expected } = created[index] as Subscription;
      const { health: _health, ...rest } = item;
      expect(rest).toEqual(expected);
    }
    expect(list.map((item) => item.sources_count)).toEqual([2, 0, 0]);
    // Hidden sources count as sources; none of these can fail.
    expect(list.map((item) => item.health)).toEqual([
      { sources: 2, failing: 0, shrink_pending: 0 },
      { sources: 0, failing: 0, shrink_pending: 0 },
      { sources: 1, failing: 0, shrink_pending: 0 },
    ]);
    expect((await listOk(t, bob.token)).map((item) => item.name)).toEqual(['bob only']);
  });

  it('keeps creation order when the clock does not move between creates', async () => {
    const users = await Promise.all([t.newUser(), t.newUser(), t.newUser()]);
    const created: string[] = [];
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00.000Z') });
    try {
      for (const user of users) {
        for (const name of ['c', 'b', 'a']) created.push((await createOk(t, user.token, { name })).token);
      }
    } finally {
      vi.useRealTimers();
    }
    const lists = await Promise.all(users.map((user) => listOk(t, user.token)));
    expect(lists.flat().map((item) => item.token)).toEqual(created);
    for (const list of lists) {
      const times = list.map((item) => Date.parse(item.created_at));
      expect(times.every((time, i) => i === 0 || time > (times[i - 1] as number))).toBe(true);
    }
  });
});

describeEachDatabase('subscriptions: get and ownership', (kind) => {
  const t = useTestApp(kind);

  async function ownedByAnother() {
    const owner = await t.newUser();
    const intruder = await t.newUser();
    const sub = await createOk(t, owner.token, {
      name: 'Private',
      description: 'owner only',
      sources: [`${config(7)}#mine`],
    });
    return { owner, intruder, sub };
  }

  it('answers 200 with the subscription', async () => {
    const { token } = await t.newUser();
    const sub = await createOk(t, token, { name: 'Mine', sources: [config(1)] });
    expect(await getOk(t, token, sub.token)).toEqual(sub);
  });

  it('answers 404 subscription_not_found for an unknown token', async () => {
    const { token } = await t.newUser();
    expectError(await t.call('GET', `${SUBS}/${unknownToken()}`, { token }), 404, 'subscription_not_found');
  });

  it.each([
    ['path traversal', '..%2F'],
    ['encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
    ['300 characters', 'a'.repeat(300)],
    ['unicode', encodeURIComponent('тест😀')],
    ['a dot', 'abc.def'],
    ['SQL', encodeURIComponent("' OR '1'='1")],
    ['a percent-encoded space', '%20'],
  ])('answers 404 subscription_not_found for a malformed token (%s)', async (_label, malformed) => {
    const { token } = await t.newUser();
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const body = method === 'PATCH' ? { name: 'x' } : undefined;
      expectError(await t.call(method, `${SUBS}/${malformed}`, { token, body }), 404, 'subscription_not_found');
    }
  });

  it.each(OPERATION_NAMES)(
    "answers 403 forbidden on another user's subscription: %s, and changes nothing",
    async (name) => {
      const { owner, intruder, sub } = await ownedByAnother();
      const operation = operationsOn(sub).find((op) => op.name === name);
      if (!operation) throw new Error(`unknown operation ${name}`);
      const response = await t.call(operation.method, operation.url, { token: intruder.token, body: operation.body });
      expectError(response, 403, 'forbidden');
      expect(response.body).not.toContain('owner only');
      expect(await getOk(t, owner.token, sub.token)).toEqual(sub);
      expect(await sourceRows(t, sub.token)).toHaveLength(1);
      expect(await listOk(t, intruder.token)).toEqual([]);
    },
  );

  it.each(OPERATION_NAMES)('answers 404 subscription_not_found on an unknown token: %s', async (name) => {
    const { token } = await t.newUser();
    const operation = operationsOn({ token: unknownToken(), sources: [] } as unknown as Subscription).find(
      (op) => op.name === name,
    );
    if (!operation) throw new Error(`unknown operation ${name}`);
    expectError(
      await t.call(operation.method, operation.url, { token, body: operation.body }),
      404,
      'subscription_not_found',
    );
  });
});

describeEachDatabase('subscriptions: patch', (kind) => {
  const t = useTestApp(kind);

  async function withSubscription(
    body: Record<string, unknown> = { name: 'Home', description: 'desc', sources: [config(1)] },
  ) {
    const { token } = await t.newUser();
    return { token, sub: await createOk(t, token, body) };
  }

  it('changes the name only, trimmed, keeping description and sources', async () => {
    const { token, sub } = await withSubscription();
    const response = await patch(t, token, sub.token, { name: '  Work ' });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json<Subscription>();
    expect(Object.keys(updated).sort()).toEqual(SUBSCRIPTION_KEYS);
    expect(updated).toMatchObject({ token: sub.token, name: 'Work', description: 'desc', created_at: sub.created_at });
    expect(updated.sources).toEqual(sub.sources);
    expect(await getOk(t, token, sub.token)).toEqual(updated);
  });

  it('changes the description only', async () => {
    const { token, sub } = await withSubscription();
    const updated = (await patch(t, token, sub.token, { description: 'new' })).json<Subscription>();
    expect(updated).toMatchObject({ name: 'Home', description: 'new' });
    expect((await getOk(t, token, sub.token)).description).toBe('new');
  });

  it('clears the description with null', async () => {
    const { token, sub } = await withSubscription();
    const response = await patch(t, token, sub.token, { description: null });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Subscription>().description).toBeNull();
    expect((await getOk(t, token, sub.token)).description).toBeNull();
  });

  it('answers 400 no_update_fields for an empty object', async () => {
    const { token, sub } = await withSubscription();
    expectError(await patch(t, token, sub.token, {}), 400, 'no_update_fields');
    expect(await getOk(t, token, sub.token)).toEqual(sub);
  });

  it('answers 409 name_exists when another subscription of the user has the name', async () => {
    const { token, sub } = await withSubscription();
    const other = await createOk(t, token, { name: 'Work' });
    expectError(await patch(t, token, other.token, { name: 'Home' }), 409, 'name_exists');
    expectError(await patch(t, token, other.token, { name: ' Home  ', description: 'changed' }), 409, 'name_exists');
    expect(await getOk(t, token, other.token)).toEqual(other);
    expect(await getOk(t, token, sub.token)).toEqual(sub);
  });

  it('allows renaming to its own current name and to a name another user has', async () => {
    const { token, sub } = await withSubscription();
    const same = await patch(t, token, sub.token, { name: ' Home ' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json<Subscription>().name).toBe('Home');
    const other = await t.newUser();
    await createOk(t, other.token, { name: 'Elsewhere' });
    expect((await patch(t, token, sub.token, { name: 'Elsewhere' })).statusCode).toBe(200);
  });

  it('allows a rename that changes only letter case', async () => {
    const { token, sub } = await withSubscription();
    await createOk(t, token, { name: 'HOME' });
    const response = await patch(t, token, sub.token, { name: 'home' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await listOk(t, token)).map((s) => s.name)).toEqual(['home', 'HOME']);
  });

  it.each([
    ['name is a number', { name: 1 }, 'body.name'],
    ['name is null', { name: null }, 'body.name'],
    ['name is empty', { name: '' }, 'body.name'],
    ['name is whitespace', { name: '   ' }, 'body.name'],
    ['name has 65 code points', { name: '😀'.repeat(65) }, 'body.name'],
    ['description is a number', { description: 7 }, 'body.description'],
    ['description is an object', { description: { text: 'x' } }, 'body.description'],
    ['description has 65 code points', { description: 'я'.repeat(65) }, 'body.description'],
  ])('answers 400 validation_failed when %s', async (_label, body, path) => {
    const { token, sub } = await withSubscription();
    expect(issuePaths(await patch(t, token, sub.token, body))).toContain(path);
    expect(await getOk(t, token, sub.token)).toEqual(sub);
  });

  it('accepts 64 code points for name and description', async () => {
    const { token, sub } = await withSubscription();
    const response = await patch(t, token, sub.token, { name: '😀'.repeat(64), description: 'я'.repeat(64) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Subscription>()).toMatchObject({ name: '😀'.repeat(64), description: 'я'.repeat(64) });
  });

  it('advances updated_at and keeps created_at', async () => {
    const { token, sub } = await withSubscription();
    await sleep(5);
    const updated = (await patch(t, token, sub.token, { description: 'later' })).json<Subscription>();
    expect(updated.created_at).toBe(sub.created_at);
    expect(updated.updated_at).toMatch(ISO_RE);
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(sub.updated_at));
    expect((await listOk(t, token))[0]?.updated_at).toBe(updated.updated_at);
  });
});

describeEachDatabase('subscriptions: delete', (kind) => {
  const t = useTestApp(kind);

  it('answers 204 with an empty body, then the subscription is gone', async () => {
    const { token } = await t.newUser();
    const keep = await createOk(t, token, { name: 'keep', sources: [config(1)] });
    const sub = await createOk(t, token, { name: 'drop', sources: [config(1), config(2)] });
    const response = await t.call('DELETE', `${SUBS}/${sub.token}`, { token });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expectError(await t.call('GET', `${SUBS}/${sub.token}`, { token }), 404, 'subscription_not_found');
    expectError(await t.call('DELETE', `${SUBS}/${sub.token}`, { token }), 404, 'subscription_not_found');
    expect((await listOk(t, token)).map((s) => s.token)).toEqual([keep.token]);
    expect(await getOk(t, token, keep.token)).toEqual(keep);
  });

  it('deletes the subscription row and all its source rows', async () => {
    const { token } = await t.newUser();
    const sub = await createOk(t, token, { name: 'drop', sources: [config(1), config(2), config(3)] });
    expect(await sourceRows(t, sub.token)).toHaveLength(3);
    expect((await t.call('DELETE', `${SUBS}/${sub.token}`, { token })).statusCode).toBe(204);
    expect(await sourceRows(t, sub.token)).toEqual([]);
    const row = await t.database.db
      .selectFrom('subscriptions')
      .select('token')
      .where('token', '=', sub.token)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('leaves subscriptions that referenced the deleted one readable (their reference rows stay)', async () => {
    const { token } = await t.newUser();
    const target = await createOk(t, token, { name: 'target', sources: [config(1)] });
    const link = `${TEST_BASE_URL}/api/v1/sub/${target.token}`;
    const holder = await createOk(t, token, { name: 'holder', sources: [link, config(2)] });
    expect(holder.sources.map((s) => s.source_type)).toEqual(['internal_token', 'config']);

    expect((await t.call('DELETE', `${SUBS}/${target.token}`, { token })).statusCode).toBe(204);
    expect(await sourceRows(t, target.token)).toEqual([]);
    // Current behaviour: the reference in another subscription is a dangling row (no FK on ref_token);
    // the holder keeps working and the resolver finds nothing behind it.
    const after = await getOk(t, token, holder.token);
    expect(after.sources.map((s) => s.data)).toEqual([link, config(2)]);
    expect(after.sources_count).toBe(1);
    // The list counts the dangling reference as failing, as its own last_error says.
    expect(after.sources.map((s) => s.last_error)).toEqual(['subscription_deleted', null]);
    const [item] = await listOk(t, token);
    expect(item?.health).toEqual({ sources: 2, failing: 1, shrink_pending: 0 });
  });
});

describeEachDatabase('subscriptions: authentication', (kind) => {
  const t = useTestApp(kind);

  async function disabledUser() {
    const user = await t.newUser();
    const sub = await createOk(t, user.token, { name: 'before' });
    await t.database.db.updateTable('users').set({ is_active: 0 }).where('user_id', '=', user.userId).execute();
    return { ...user, sub };
  }

  it.each([
    ['GET', SUBS],
    ['POST', SUBS],
    ['GET', `${SUBS}/${'a'.repeat(43)}`],
    ['DELETE', `${SUBS}/${'a'.repeat(43)}`],
  ] as const)('answers 401 missing_token without API-Token: %s %s', async (method, url) => {
    expectError(
      await t.call(method, url, { body: method === 'POST' ? { name: 'x' } : undefined }),
      401,
      'missing_token',
    );
  });

  it('treats a blank API-Token header as missing', async () => {
    expectError(await t.call('GET', SUBS, { headers: { 'api-token': '   ' } }), 401, 'missing_token');
  });

  it('answers 401 invalid_token for an unknown token', async () => {
    expectError(await t.call('GET', SUBS, { token: 'A'.repeat(43) }), 401, 'invalid_token');
    expectError(await t.call('POST', SUBS, { token: 'not-a-token', body: { name: 'x' } }), 401, 'invalid_token');
  });

  it('answers 403 account_disabled for a disabled user and changes nothing', async () => {
    const user = await disabledUser();
    expectError(await t.call('GET', SUBS, { token: user.token }), 403, 'account_disabled');
    expectError(await create(t, user.token, { name: 'after' }), 403, 'account_disabled');
    expectError(await t.call('GET', `${SUBS}/${user.sub.token}`, { token: user.token }), 403, 'account_disabled');
    expectError(await t.call('DELETE', `${SUBS}/${user.sub.token}`, { token: user.token }), 403, 'account_disabled');
    const rows = await t.database.db
      .selectFrom('subscriptions')
      .select('name')
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toEqual([{ name: 'before' }]);
  });

  it('checks authentication before body validation and parsing', async () => {
    expectError(await t.call('POST', SUBS, { body: { name: 5, sources: 'x' } }), 401, 'missing_token');
    expectError(await t.call('POST', SUBS, { token: 'nope', body: { name: 5 } }), 401, 'invalid_token');
    expectError(
      await t.call('POST', SUBS, { body: '{not json', headers: { 'content-type': 'application/json' } }),
      401,
      'missing_token',
    );
    expectError(await t.call('PATCH', `${SUBS}/${'a'.repeat(43)}`, { body: {} }), 401, 'missing_token');
  });

  it('checks the disabled state before body validation', async () => {
    const user = await disabledUser();
    expectError(await create(t, user.token, { name: '' }), 403, 'account_disabled');
  });
});

describeEachDatabase('subscriptions: the list reports source health', (kind) => {
  const t = useTestApp(kind);
  const upstream = useUpstream();

  it('counts failing subscription URLs and held shrinks per subscription, as their sources report them', async () => {
    const { token } = await t.newUser();
    const twenty = Array.from({ length: 20 }, (_, n) => config(100 + n)).join('\n');
    const shrinking = upstream.current.add(twenty);
    const broken = upstream.current.add(text('upstream down', 500));
    const healthy = await createOk(t, token, { name: 'healthy', sources: [config(1)] });
    const held = await createOk(t, token, { name: 'held', sources: [shrinking] });
    const failing = await createOk(t, token, { name: 'failing', sources: [broken, config(2)] });

    upstream.current.set(shrinking, [config(1), config(2)].join('\n'));
    const refresh = await t.call('POST', `${SUBS}/${held.token}/refresh`, { token });
    expect(refresh.statusCode, refresh.body).toBe(200);

    const sources = new Map((await listOk(t, token)).map((item) => [item.name, item.health]));
    expect(sources.get('healthy')).toEqual({ sources: 1, failing: 0, shrink_pending: 0 });
    // A held shrink is recorded in last_error too (docs/api.md, shrink guard).
    expect(sources.get('held')).toEqual({ sources: 1, failing: 1, shrink_pending: 1 });
    expect(sources.get('failing')).toEqual({ sources: 2, failing: 1, shrink_pending: 0 });
    // The same figures as the sources' own fields.
    const heldSource = (await getOk(t, token, held.token)).sources[0];
    expect([heldSource?.shrink_pending, heldSource?.last_error === null]).toEqual([true, false]);
    expect((await getOk(t, token, failing.token)).sources.map((s) => s.last_error !== null)).toEqual([true, false]);
    expect(healthy.sources).toHaveLength(1);
  });
});
