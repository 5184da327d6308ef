// Rotating a link (docs/api.md, Rotating a link): a new token at once, references follow, access rules of a change, every instance forgets the old link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createUser } from '../../src/modules/users/users.service.js';
import {
  describeEachDatabase,
  scratchDatabaseUrl,
  startTestApp,
  testConfig,
  testDatabaseKinds,
  TEST_BASE_URL,
  useTestApp,
} from '../support/harness.js';
import {
  approvedPair,
  decide,
  internalRef,
  sha32,
  trojanUri,
  unique,
  vlessUri,
  type Subscription,
} from '../support/factories.js';
import { TOKEN_RE, expectError, expectStatus } from '../support/expect.js';

const SUBS = '/api/v1/subs';

describeEachDatabase('rotating a link', (kind) => {
  const t = useTestApp(kind, { MAX_SUBSCRIPTIONS_PER_USER: '10' });

  async function create(userToken: string, body: Record<string, unknown>, base = SUBS): Promise<Subscription> {
    const res = await t.call('POST', base, { token: userToken, body: { name: unique('s'), ...body } });
    return expectStatus(res, 201).json<Subscription>();
  }
  const rotate = (userToken: string, token: string, base = SUBS) =>
    t.call('POST', `${base}/${token}/rotate`, { token: userToken });
  const get = async (userToken: string, token: string) =>
    expectStatus(await t.call('GET', `${SUBS}/${token}`, { token: userToken }), 200).json<Subscription>();
  const plainLink = (token: string) => t.call('GET', `/sub/${token}?format=plain`);
  const lines = async (token: string) => expectStatus(await plainLink(token), 200).body.split('\n');

  it('answers 200 with the same subscription under a new token; the old token is 404 at once', async () => {
    const { token } = await t.newUser();
    const configs = [`${vlessUri()}#First`, trojanUri()];
    const sub = await create(token, {
      description: 'desc',
      sources: [configs[0], { data: configs[1], is_hidden: true, max_depth: 2 }],
      announce: 'hi',
      update_interval_hours: 8,
    });
    const oldLink = await plainLink(sub.token); // now cached
    expect(oldLink.statusCode).toBe(200);
    for (const path of [`/sub/${sub.token}`, `/api/v1/sub/${sub.token}`]) {
      expect((await t.call('GET', path)).statusCode).toBe(200);
    }

    const res = await rotate(token, sub.token);
    expect(res.statusCode, res.body).toBe(200);
    const rotated = res.json<Subscription>();
    expect(rotated.token).toMatch(TOKEN_RE);
    expect(rotated.token).not.toBe(sub.token);
    const { token: _old, link: _ol, links: _ols, updated_at: _u, ...kept } = sub;
    const { token: _new, link, links, updated_at: updatedAt, ...now } = rotated;
    expect(now).toEqual(kept);
    // The link is the new token's.
    expect(link).toBe(`${TEST_BASE_URL}/sub/${rotated.token}`);
    expect(links.page).toBe(link);
    expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(Date.parse(sub.updated_at));

    for (const path of [`/sub/${sub.token}`, `/api/v1/sub/${sub.token}`, `/sub/${sub.token}/plain`]) {
      expectError(await t.call('GET', path), 404, 'subscription_not_found');
    }
    expect((await t.call('GET', `/sub/${sub.token}`, { headers: { accept: 'text/html' } })).statusCode).toBe(404);
    expectError(await t.call('GET', `${SUBS}/${sub.token}`, { token }), 404, 'subscription_not_found');
    expectError(await rotate(token, sub.token), 404, 'subscription_not_found');
    const newLink = await plainLink(rotated.token);
    expect(newLink.statusCode).toBe(200);
    expect(newLink.body).toBe(oldLink.body);
    expect(newLink.headers['announce']).toBe('hi');
    expect(await get(token, rotated.token)).toEqual(rotated);
    const listed = expectStatus(await t.call('GET', SUBS, { token }), 200).json<Array<{ token: string }>>();
    expect(listed.map((s) => s.token)).toEqual([rotated.token]);

    const { db } = t.database;
    expect(await db.selectFrom('sources').select('id').where('subscription_token', '=', sub.token).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('subscriptions').select('token').where('token', '=', sub.token).execute()).toEqual([]);
  });

  it('references follow to the new token: data and id change; hidden, depth and order stay; links keep serving', async () => {
    const owner = await t.newUser();
    const other = await t.newUser();
    const target = await create(owner.token, { sources: [vlessUri(), trojanUri()] });
    const targetLines = await lines(target.token);
    const before = vlessUri();
    const holder = await create(other.token, {
      sources: [before, { data: internalRef(target.token), is_hidden: false, max_depth: 1 }, trojanUri()],
    });
    const hiddenHolder = await create(owner.token, {
      sources: [{ data: internalRef(target.token), is_hidden: true, max_depth: 2 }],
    });
    const outer = await create(other.token, { sources: [internalRef(holder.token)] });
    const holderLines = await lines(holder.token); // cached, as are the others
    const outerLines = await lines(outer.token);
    expect(holderLines).toEqual(expect.arrayContaining(targetLines));
    expect(await lines(hiddenHolder.token)).toEqual(['']);

    const rotated = expectStatus(await rotate(owner.token, target.token), 200).json<Subscription>();
    const newRef = internalRef(rotated.token);

    const holderNow = await get(other.token, holder.token);
    expect(holderNow.sources.map((s) => s.order_index)).toEqual([0, 1, 2]);
    const ref = holderNow.sources[1];
    expect(ref).toMatchObject({
      source_type: 'internal_token',
      data: newRef,
      id: sha32(`internal:${rotated.token}`),
      comment: null,
      is_hidden: false,
      max_depth: 1,
      order_index: 1,
    });
    expect(holderNow.sources[0]).toEqual(holder.sources[0]);
    expect(holderNow.sources[2]).toEqual(holder.sources[2]);
    expect(Date.parse(holderNow.updated_at)).toBeGreaterThanOrEqual(Date.parse(holder.updated_at));
    expect((await get(owner.token, hiddenHolder.token)).sources[0]).toMatchObject({
      data: newRef,
      id: sha32(`internal:${rotated.token}`),
      is_hidden: true,
      max_depth: 2,
    });
    // The reference held by `outer` names `holder`, which did not move.
    expect((await get(other.token, outer.token)).sources[0]?.data).toBe(internalRef(holder.token));
    expect(await lines(holder.token)).toEqual(holderLines);
    expect(await lines(outer.token)).toEqual(outerLines);

    // The graph now runs through the new token: a change there reaches every holder's link at once.
    const added = vlessUri();
    expectStatus(
      await t.call('POST', `${SUBS}/${rotated.token}/sources`, { token: owner.token, body: { sources: [added] } }),
      200,
    );
    expect((await lines(holder.token)).some((line) => line.startsWith(added))).toBe(true);
    expect((await lines(outer.token)).some((line) => line.startsWith(added))).toBe(true);
    // And the cycle check too.
    expectError(
      await t.call('POST', `${SUBS}/${rotated.token}/sources`, {
        token: owner.token,
        body: { sources: [internalRef(hiddenHolder.token)] },
      }),
      400,
      'circular_reference',
    );
    const stale = await t.database.db
      .selectFrom('sources')
      .select('subscription_token')
      .where('ref_token', '=', target.token)
      .execute();
    expect(stale).toEqual([]);
  });

  it('the old token can no longer be referenced; the new one can', async () => {
    const { token } = await t.newUser();
    const target = await create(token, { sources: [vlessUri()] });
    const rotated = expectStatus(await rotate(token, target.token), 200).json<Subscription>();
    const holder = await create(token, {});
    expectError(
      await t.call('POST', `${SUBS}/${holder.token}/sources`, {
        token,
        body: { sources: [internalRef(target.token)] },
      }),
      400,
      'invalid_source',
    );
    const added = expectStatus(
      await t.call('POST', `${SUBS}/${holder.token}/sources`, {
        token,
        body: { sources: [internalRef(rotated.token)] },
      }),
      200,
    ).json<Subscription>();
    expect(added.sources[0]?.data).toBe(internalRef(rotated.token));
  });

  it('rotating again gives another token each time; every earlier token stays dead', async () => {
    const { token } = await t.newUser();
    const tokens = [(await create(token, { sources: [vlessUri()] })).token];
    for (let i = 0; i < 3; i++) {
      tokens.push(expectStatus(await rotate(token, tokens.at(-1) as string), 200).json<Subscription>().token);
    }
    expect(new Set(tokens).size).toBe(4);
    for (const old of tokens.slice(0, -1)) expect((await plainLink(old)).statusCode).toBe(404);
    expect((await plainLink(tokens.at(-1) as string)).statusCode).toBe(200);
  });

  it('is a change: strangers get 403 forbidden, unknown tokens 404, no API token 401; nothing moves', async () => {
    const owner = await t.newUser();
    const stranger = await t.newUser();
    const sub = await create(owner.token, { sources: [vlessUri()] });
    expectError(await rotate(stranger.token, sub.token), 403, 'forbidden');
    expectError(await rotate(owner.token, 'Z'.repeat(43)), 404, 'subscription_not_found');
    expectError(await rotate(owner.token, 'not%20a%20token'), 404, 'subscription_not_found');
    expectError(await t.call('POST', `${SUBS}/${sub.token}/rotate`), 401, 'missing_token');
    const { provider, subs } = await approvedPair(t);
    expectError(await rotate(provider.token, sub.token, subs), 403, 'forbidden');
    expect((await plainLink(sub.token)).statusCode).toBe(200);
    expect((await get(owner.token, sub.token)).token).toBe(sub.token);
  });

  it('provider mount: the provider rotates; the user gets managed_by_provider while approved, and may after revoking', async () => {
    const { user, provider, subs } = await approvedPair(t);
    const sub = await create(provider.token, { sources: [vlessUri()] }, subs);
    const byProvider = expectStatus(await rotate(provider.token, sub.token, subs), 200).json<Subscription>();
    expect(byProvider).toMatchObject({ name: sub.name, provider_name: provider.name });
    expect(byProvider.token).not.toBe(sub.token);
    expect((await plainLink(sub.token)).statusCode).toBe(404);

    expectError(await rotate(user.token, byProvider.token), 403, 'managed_by_provider');
    expect((await plainLink(byProvider.token)).statusCode).toBe(200);

    expect((await decide(t, user.token, provider.name, 'revoke')).statusCode).toBe(204);
    const byUser = expectStatus(await rotate(user.token, byProvider.token), 200).json<Subscription>();
    expect(byUser.provider_name).toBe(provider.name);
    expect((await plainLink(byProvider.token)).statusCode).toBe(404);
    expect((await plainLink(byUser.token)).statusCode).toBe(200);
  });

  it.runIf(kind === 'postgres')(
    'racing reference adds either land before and follow, or find the old token gone',
    async () => {
      const { token } = await t.newUser();
      for (let round = 0; round < 10; round++) {
        const target = await create(token, { sources: [vlessUri()] });
        const holder = await create(token, {});
        const [rotated, added] = await Promise.all([
          rotate(token, target.token),
          t.call('POST', `${SUBS}/${holder.token}/sources`, { token, body: { sources: [internalRef(target.token)] } }),
        ]);
        expect(rotated.statusCode, rotated.body).toBe(200);
        expect([200, 400], added.body).toContain(added.statusCode);
        const refs = (await get(token, holder.token)).sources.map((s) => s.data);
        expect(refs).toEqual(added.statusCode === 200 ? [internalRef(rotated.json<Subscription>().token)] : []);
        for (const sub of [rotated.json<Subscription>(), holder]) {
          expect((await t.call('DELETE', `${SUBS}/${sub.token}`, { token })).statusCode).toBe(204);
        }
      }
    },
  );
});

for (const kind of testDatabaseKinds()) {
  describe(`rotating a link, two instances [${kind}]`, () => {
    const handles: DatabaseHandle[] = [];
    const apps: FastifyInstance[] = [];
    let cleanup = async () => {};

    beforeAll(async () => {
      const scratch = await scratchDatabaseUrl(kind);
      cleanup = scratch.cleanup;
      for (let i = 0; i < 2; i++) {
        const handle = createDatabase(scratch.url);
        await migrateToLatest(handle);
        handles.push(handle);
        apps.push((await startTestApp(testConfig(), handle)).app);
      }
    });

    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const handle of handles) await handle.close();
      await cleanup();
    });

    it('the other instance forgets the old link and follows the reference within the change-log interval', async () => {
      const [first, second] = apps as [FastifyInstance, FastifyInstance];
      const { api_token: apiToken } = await createUser(
        (handles[0] as DatabaseHandle).db,
        8_000 + Math.floor(Math.random() * 1_000_000),
      );
      const headers = { 'api-token': apiToken };
      const post = async (url: string, payload?: unknown) => {
        const res = await first.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.json<Subscription>();
      };
      const config = vlessUri();
      const target = await post(SUBS, { name: 'target', sources: [config] });
      const holder = await post(SUBS, { name: 'holder', sources: [internalRef(target.token)] });
      const onSecond = (token: string) => second.inject({ method: 'GET', url: `/sub/${token}?format=plain` });
      expect((await onSecond(target.token)).statusCode).toBe(200); // cached on the second instance
      const holderBody = (await onSecond(holder.token)).body;

      const rotated = await post(`${SUBS}/${target.token}/rotate`);
      const started = Date.now();
      while ((await onSecond(target.token)).statusCode !== 404 && Date.now() - started < 1_500) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await onSecond(target.token)).statusCode).toBe(404);
      expect((await onSecond(rotated.token)).statusCode).toBe(200);
      expect((await onSecond(holder.token)).body).toBe(holderBody);
      const added = trojanUri();
      await post(`${SUBS}/${rotated.token}/sources`, { sources: [added] });
      const deadline = Date.now() + 1_500;
      while (!(await onSecond(holder.token)).body.includes(added.split('?')[0] as string) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await onSecond(holder.token)).body).toContain(added.split('?')[0]);
    });
  });
}
