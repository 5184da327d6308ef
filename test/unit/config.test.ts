import { describe, expect, it } from 'vitest';
import { adminSecretWarning, ConfigError, loadConfig } from '../../src/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      publicBaseUrl: 'http://localhost:8080',
      databaseUrl: 'sqlite:./data/subweave.db',
      redisUrl: null,
      adminSecret: null,
      maxSubscriptionsPerUser: 3,
      maxProvidersPerUser: 5,
      maxSourcesPerSubscription: 150,
      maxNestingDepth: 3,
      maxResolvedConfigs: 2000,
      refreshIntervalSeconds: 900,
      fetchTimeoutMs: 10_000,
      fetchMaxBytes: 5_242_880,
      fetchMaxRedirects: 3,
      fetchAllowPrivate: false,
      defaultBanSeconds: 3600,
      rateLimitPublicPerMin: 120,
      rateLimitApiPerMin: 600,
      rateLimitAnonPerMin: 60,
      autoBanViolations: 10,
      connectionLinkTemplate: '{base_url}/connect/{provider_name}',
      inviteSecret: null,
      logLevel: 'info',
    });
    expect(config.fetchUserAgent).toMatch(/^subweave\/\d+\.\d+\.\d+/);
    expect(config.adminAllowedIps.map((r) => r.text)).toEqual(['127.0.0.1', '::1']);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('derives the base URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '9000' }).publicBaseUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://subs.example.com/' }).publicBaseUrl).toBe('https://subs.example.com');
  });

  it('accepts PostgreSQL URLs and derives an invite key from ADMIN_SECRET', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://u@h/db',
      ADMIN_SECRET: 's3cret-of-at-least-32-characters',
    });
    expect(config.databaseUrl).toBe('postgresql://u@h/db');
    expect(config.inviteSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(config.inviteSecret).not.toContain('s3cret');
    expect(
      loadConfig({ ADMIN_SECRET: 'admin-secret-of-at-least-32-characters', INVITE_SECRET: 'b' }).inviteSecret,
    ).toBe('b');
  });

  it('refuses an ADMIN_SECRET under 16 characters (code points, after trimming) and warns under 32', () => {
    const refused = problemsOf({ ADMIN_SECRET: '  ' + 'x'.repeat(15) + '  ' });
    expect(refused).toEqual([
      'ADMIN_SECRET must be at least 16 characters (got 15); make one with: openssl rand -base64 32',
    ]);
    // 15 code points in 30 UTF-16 units are still too few.
    expect(problemsOf({ ADMIN_SECRET: '🔑'.repeat(15) })).toHaveLength(1);

    const short = loadConfig({ ADMIN_SECRET: 'x'.repeat(16) });
    expect(short.adminSecret).toBe('x'.repeat(16));
    expect(adminSecretWarning(short)).toBe(
      'ADMIN_SECRET has 16 characters; use at least 32 (make one with: openssl rand -base64 32)',
    );
    expect(adminSecretWarning(loadConfig({ ADMIN_SECRET: 'x'.repeat(31) }))).toContain('has 31 characters');
    expect(adminSecretWarning(loadConfig({ ADMIN_SECRET: 'x'.repeat(32) }))).toBeNull();
    expect(adminSecretWarning(loadConfig({}))).toBeNull();
  });

  it('reports every bad variable at once', () => {
    const problems = problemsOf({
      PORT: '70000',
      DATABASE_URL: 'mysql://x',
      MAX_NESTING_DEPTH: 'three',
      FETCH_ALLOW_PRIVATE: 'perhaps',
      ADMIN_ALLOWED_IPS: '10.0.0.0/33,not-an-ip',
      LOG_LEVEL: 'loud',
      PUBLIC_BASE_URL: 'ftp://x',
      REDIS_URL: 'http://x',
      REFRESH_INTERVAL_SECONDS: '0',
    });
    const named = problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'MAX_NESTING_DEPTH',
      'FETCH_ALLOW_PRIVATE',
      'ADMIN_ALLOWED_IPS',
      'LOG_LEVEL',
      'PUBLIC_BASE_URL',
      'REDIS_URL',
      'REFRESH_INTERVAL_SECONDS',
    ]) {
      expect(named).toContain(name);
    }
    expect(named).toContain('not-an-ip');
    expect(problems).toHaveLength(9);
  });

  it('reads the audit and webhook variables, and refuses bad ones (docs/webhooks.md)', () => {
    expect(loadConfig({})).toMatchObject({
      auditRetentionDays: 365,
      webhookRetryDelays: [5, 300, 1800, 7200, 18_000, 36_000, 36_000],
      webhookConcurrency: 8,
      webhookPollMs: 1000,
      webhookTimeoutMs: 10_000,
    });
    const set = loadConfig({
      AUDIT_RETENTION_DAYS: '30',
      WEBHOOK_RETRY_DELAYS: '0.5, 2,10',
      WEBHOOK_CONCURRENCY: '2',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '500',
    });
    expect(set).toMatchObject({
      auditRetentionDays: 30,
      webhookRetryDelays: [0.5, 2, 10],
      webhookConcurrency: 2,
      webhookPollMs: 50,
      webhookTimeoutMs: 500,
    });
    for (const [name, value] of [
      ['AUDIT_RETENTION_DAYS', '0'],
      ['AUDIT_RETENTION_DAYS', '36501'],
      ['WEBHOOK_RETRY_DELAYS', '5,soon'],
      ['WEBHOOK_RETRY_DELAYS', '-5'],
      ['WEBHOOK_RETRY_DELAYS', Array.from({ length: 21 }, () => '1').join(',')],
      ['WEBHOOK_CONCURRENCY', '0'],
      ['WEBHOOK_CONCURRENCY', '257'],
      ['WEBHOOK_POLL_MS', '9'],
      ['WEBHOOK_TIMEOUT_MS', '99'],
      ['WEBHOOK_TIMEOUT_MS', '60001'],
      ['WEBHOOK_TIMEOUT_MS', 'ten'],
    ] as const) {
      const problems = problemsOf({ [name]: value });
      expect(problems, `${name}=${value}`).toHaveLength(1);
      expect(problems[0]).toContain(name);
    }
  });

  it('treats 0 as "no limit" for rate limits but refuses negatives', () => {
    expect(loadConfig({ RATE_LIMIT_PUBLIC_PER_MIN: '0' }).rateLimitPublicPerMin).toBe(0);
    expect(problemsOf({ RATE_LIMIT_PUBLIC_PER_MIN: '-1' })).toHaveLength(1);
  });
});
