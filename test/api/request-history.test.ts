// The request history of a link (GET .../subs/{token}/requests): fetches over real HTTP, through the link lane and
// through Fastify's route, recorded in memory and read back from the database in both scopes.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, startTestApp, useTestApp, type TestApp } from '../support/harness.js';
import { approvedPair, PROVIDERS, trojanUri, vlessUri } from '../support/factories.js';
import { expectError, expectStatus } from '../support/expect.js';

interface Entry {
  at: string;
  format: string | null;
  rule: string | null;
  status: number;
  user_agent: string | null;
  client: string | null;
  servers: number | null;
}

const SUBS = '/api/v1/subs';

function listen(t: TestApp): () => string {
  let base = '';
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  return () => base;
}

/** One GET over a real socket, as a client app sends it. */
function fetchLink(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function newLink(t: TestApp, userToken: string, prefix = SUBS, sources = [vlessUri(), trojanUri()]) {
  const created = await t.call('POST', prefix, { token: userToken, body: { name: 'History', sources } });
  return expectStatus(created, 201).json<{ token: string }>().token;
}

async function history(t: TestApp, userToken: string, token: string, prefix = SUBS): Promise<Entry[]> {
  const res = await t.call('GET', `${prefix}/${token}/requests`, { token: userToken });
  return expectStatus(res, 200).json<{ requests: Entry[] }>().requests;
}

describeEachDatabase('request history', (kind) => {
  describe('recording', () => {
    const t = useTestApp(kind);
    const base = listen(t);

    it('records the lane, the route, a 304 and a refused format with their fields, newest first', async () => {
      const user = await t.newUser();
      const token = await newLink(t, user.token);
      const laneAnswers = () => t.context.metrics.laneAnswers;

      const cold = await fetchLink(base(), `/sub/${token}`, { 'user-agent': 'cold-client/1.0' });
      expect(cold.status).toBe(200);
      const before = laneAnswers();
      const longAgent = `mihomo/1.19.0 ${'x'.repeat(400)}`;
      const warm = await fetchLink(base(), `/sub/${token}`, { 'user-agent': longAgent });
      expect(warm.status).toBe(200);
      expect(laneAnswers()).toBe(before + 1);
      const held = await fetchLink(base(), `/sub/${token}/plain`, { 'if-none-match': '*' });
      expect(held.status).toBe(304);
      expect((await fetchLink(base(), `/sub/${token}/nonsense`)).status).toBe(400);

      const entries = await history(t, user.token, token);
      expect(entries.map((entry) => entry.status)).toEqual([400, 304, 200, 200]);
      const [refused, notModified, lane, route] = entries as [Entry, Entry, Entry, Entry];
      expect(route).toMatchObject({
        format: 'base64',
        rule: 'default',
        user_agent: 'cold-client/1.0',
        client: '127.0.0.0/24',
        servers: 2,
      });
      expect(lane).toMatchObject({ format: warm.headers['subweave-format'], rule: warm.headers['subweave-rule'] });
      expect(lane.format).toBe('mihomo');
      expect(lane.user_agent).toBe(longAgent.slice(0, 256));
      expect(lane.servers).toBe(2);
      expect(notModified).toMatchObject({ format: 'plain', rule: 'path', servers: 2, user_agent: null });
      expect(refused).toMatchObject({ format: 'nonsense', rule: null, servers: null });
      for (const entry of entries) expect(Date.parse(entry.at)).not.toBeNaN();
    });

    it('keeps the newest 100 fetches', async () => {
      const user = await t.newUser();
      const token = await newLink(t, user.token);
      for (let i = 0; i < 105; i++) {
        // Written in two batches, so the stored rows are pruned, not only the read.
        if (i === 60) await t.context.requestHistory.flush();
        expect((await fetchLink(base(), `/sub/${token}`, { 'user-agent': `client-${i}` })).status).toBe(200);
      }
      await t.context.requestHistory.flush();
      const entries = await history(t, user.token, token);
      expect(entries).toHaveLength(100);
      expect(entries[0]!.user_agent).toBe('client-104');
      expect(entries[99]!.user_agent).toBe('client-5');
      const stored = await t.database.db
        .selectFrom('request_history')
        .select('seq')
        .where('subscription_token', '=', token)
        .execute();
      expect(stored).toHaveLength(100);
    });

    it('rotation keeps the history; deletion removes it', async () => {
      const user = await t.newUser();
      const token = await newLink(t, user.token);
      await fetchLink(base(), `/sub/${token}`, { 'user-agent': 'before-rotation' });
      const rotated = expectStatus(await t.call('POST', `${SUBS}/${token}/rotate`, { token: user.token }), 200);
      const fresh = rotated.json<{ token: string }>().token;
      await fetchLink(base(), `/sub/${fresh}`, { 'user-agent': 'after-rotation' });
      expect((await history(t, user.token, fresh)).map((entry) => entry.user_agent)).toEqual([
        'after-rotation',
        'before-rotation',
      ]);
      expectError(
        await t.call('GET', `${SUBS}/${token}/requests`, { token: user.token }),
        404,
        'subscription_not_found',
      );

      expectStatus(await t.call('DELETE', `${SUBS}/${fresh}`, { token: user.token }), 204);
      const left = await t.database.db
        .selectFrom('request_history')
        .select('seq')
        .where('subscription_token', 'in', [token, fresh])
        .execute();
      expect(left).toEqual([]);
    });

    it('shows the newest fetches across instances, each writing its own', async () => {
      const user = await t.newUser();
      const token = await newLink(t, user.token);
      const other = await startTestApp(t.config, t.database);
      try {
        await fetchLink(base(), `/sub/${token}`, { 'user-agent': 'first-1' });
        const fetched = await other.app.inject({ url: `/sub/${token}`, headers: { 'user-agent': 'second' } });
        expect(fetched.statusCode).toBe(200);
        await fetchLink(base(), `/sub/${token}`, { 'user-agent': 'first-2' });
        // The other instance's periodic flush; this instance's fetches are still only in its memory.
        await other.context.requestHistory.flush();
        const agents = (await history(t, user.token, token)).map((entry) => entry.user_agent);
        expect(agents).toEqual(['first-2', 'second', 'first-1']);
      } finally {
        await other.app.close();
      }
    });

    it('another user cannot read it; a provider reads its managed link under the provider mount only', async () => {
      const owner = await t.newUser();
      const stranger = await t.newUser();
      const token = await newLink(t, owner.token);
      await fetchLink(base(), `/sub/${token}`);
      expectError(await t.call('GET', `${SUBS}/${token}/requests`, { token: stranger.token }), 403, 'forbidden');
      expectError(
        await t.call('GET', `${SUBS}/unknown-token/requests`, { token: owner.token }),
        404,
        'subscription_not_found',
      );

      const { user, provider, subs } = await approvedPair(t);
      const managed = await newLink(t, provider.token, subs);
      await fetchLink(base(), `/api/v1/sub/${managed}`, { 'user-agent': 'managed' });
      expect((await history(t, provider.token, managed, subs)).map((entry) => entry.user_agent)).toEqual(['managed']);
      // The owner reads it too; the provider cannot reach another user's link through its mount.
      expect(await history(t, user.token, managed)).toHaveLength(1);
      expectError(await t.call('GET', `${subs}/${token}/requests`, { token: provider.token }), 403, 'forbidden');
      expectError(
        await t.call('GET', `${PROVIDERS}/${owner.userId}/subs/${token}/requests`, { token: provider.token }),
        403,
        'connection_not_approved',
      );
    });
  });

  describe('behind a trusted proxy', () => {
    const t = useTestApp(kind, { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_PUBLIC_PER_MIN: '3' });
    const base = listen(t);

    it("records the forwarded client's network, and refusals of the budget", async () => {
      const user = await t.newUser();
      const token = await newLink(t, user.token);
      await fetchLink(base(), `/sub/${token}`, { 'x-forwarded-for': '203.0.113.77' });
      await fetchLink(base(), `/sub/${token}`, { 'x-forwarded-for': '2001:db8:abcd:12::7' });
      await fetchLink(base(), `/sub/${token}`, { 'x-forwarded-for': '2001:db8:abcd:12::7' });
      await fetchLink(base(), `/sub/${token}`, { 'x-forwarded-for': '2001:db8:abcd:12::7' });
      const limited = await fetchLink(base(), `/sub/${token}`, { 'x-forwarded-for': '2001:db8:abcd:12::7' });
      expect(limited.status).toBe(429);
      const entries = await history(t, user.token, token);
      expect(entries.map((entry) => [entry.status, entry.client])).toEqual([
        [429, '2001:db8:abcd::/48'],
        [200, '2001:db8:abcd::/48'],
        [200, '2001:db8:abcd::/48'],
        [200, '2001:db8:abcd::/48'],
        [200, '203.0.113.0/24'],
      ]);
    });
  });
});
