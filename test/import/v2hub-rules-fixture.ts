// A v2hub database holding what the API refuses: control characters, over-long text, reference cycles and chains,
// too many sources, a private upstream. Its text columns are widened, as in databases edited by hand.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createV2hubSchema } from './v2hub-fixture.js';

const hex32 = (text: string): string => createHash('md5').update(text).digest('hex');
const token43 = (): string => randomBytes(32).toString('base64url');

/** 63 letters and one emoji past the 64-character limit: a cut that counted UTF-16 units would split the pair. */
export const LONG_NAME = `${'Ω'.repeat(63)}😀😀`;
/** About 1 MiB of UTF-8. */
export const HUGE_DESCRIPTION = `${'x'.repeat(63)}${'😀'.repeat(262_144)}`;
export const LONG_COMMENT = `${'c'.repeat(255)}${'😀'.repeat(10)}`;
export const PRIVATE_URL = 'http://127.0.0.1:9/sub';
export const CONTROL_CONFIG = 'trojan://pw@ctl.example.com:443?sni=ctl\u0001.example.com';

export const config = (host: string): string => `trojan://pw@${host}.example.com:443`;

export interface RulesFixture {
  url: string;
  userId: number;
  apiToken: string;
  subs: Record<
    'control' | 'big' | 'cycleA' | 'cycleB' | 'cycleC' | 'self' | 'many' | 'd1' | 'd2' | 'd3' | 'd4' | 'd5',
    string
  >;
  drop(): Promise<void>;
}

export async function createRulesFixture(baseUrl: string): Promise<RulesFixture> {
  const { url, q, drop } = await createV2hubSchema(baseUrl);
  await q(`alter table subscriptions alter column name type text, alter column description type text;
    alter table config_comments alter column comment type text`);
  const userHash = randomUUID();
  const apiToken = token43();
  const userId = 81_001;
  await q('insert into users (user_hash, user_id, api_token) values ($1, $2, $3)', [userHash, userId, apiToken]);

  let clock = Date.parse('2025-04-01T10:00:00.000Z');
  const subscription = async (name: string, description: string | null = null): Promise<string> => {
    const token = token43();
    clock += 60_000;
    await q(
      'insert into subscriptions (token, name, user_hash, description, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)',
      [token, name, userHash, description, new Date(clock).toISOString()],
    );
    return token;
  };
  const subs = {
    control: await subscription('Con\u0007trol\u001b room', 'first\u0001line\u0085'),
    big: await subscription(LONG_NAME, HUGE_DESCRIPTION),
    cycleA: await subscription('cycle A'),
    cycleB: await subscription('cycle B'),
    cycleC: await subscription('cycle C'),
    self: await subscription('self'),
    many: await subscription('many'),
    d1: await subscription('d1'),
    d2: await subscription('d2'),
    d3: await subscription('d3'),
    d4: await subscription('d4'),
    d5: await subscription('d5'),
  };

  let order = 0;
  const addConfig = async (token: string, data: string, comment?: string): Promise<void> => {
    await q(
      'insert into proxy_configs (config_hash, config_data, protocol) values ($1, $2, $3) on conflict do nothing',
      [hex32(data), data, 'trojan'],
    );
    await q(
      `insert into sources (subscription_token, id, source_type, config_hash, order_index)
       values ($1, $2, 'config', $2, $3)`,
      [token, hex32(data), order++],
    );
    if (comment !== undefined) {
      await q('insert into config_comments (subscription_token, config_hash, comment) values ($1, $2, $3)', [
        token,
        hex32(data),
        comment,
      ]);
    }
  };
  const addRef = (token: string, ref: string) =>
    q(
      `insert into sources (subscription_token, id, source_type, internal_token, order_index)
       values ($1, $2, 'internal_token', $3, $4)`,
      [token, hex32(ref), ref, order++],
    );

  await addConfig(subs.control, config('control'), 'Pa\u0008ris\u009b');
  await addConfig(subs.control, CONTROL_CONFIG);
  await addConfig(subs.big, config('big'), LONG_COMMENT);
  await addConfig(subs.cycleA, config('a'));
  await addRef(subs.cycleA, subs.cycleB);
  await addConfig(subs.cycleB, config('b'));
  await addRef(subs.cycleB, subs.cycleC);
  await addConfig(subs.cycleC, config('c'));
  await addRef(subs.cycleC, subs.cycleA);
  await addConfig(subs.self, config('self'));
  await addRef(subs.self, subs.self);
  for (let i = 1; i <= 6; i++) await addConfig(subs.many, config(`many${i}`));
  await q(
    `insert into sources (subscription_token, id, source_type, external_url, order_index)
     values ($1, $2, 'external_url', $3, $4)`,
    [subs.d5, hex32(PRIVATE_URL), PRIVATE_URL, order++],
  );
  await q('insert into external_cache (url_hash, url, raw_content, fetched_at) values ($1, $2, $3, now())', [
    hex32(PRIVATE_URL),
    PRIVATE_URL,
    config('private'),
  ]);
  await addRef(subs.d1, subs.d2);
  await addRef(subs.d2, subs.d3);
  await addRef(subs.d3, subs.d4);
  await addRef(subs.d4, subs.d5);
  await addConfig(subs.d5, config('d5'));

  return { url, userId, apiToken, subs, drop };
}
