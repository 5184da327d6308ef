// Turns environment variables into one validated, frozen Config so every bad value is reported at start, at once.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseIpList, type IpRange } from './net/ip.js';

export interface Config {
  host: string;
  port: number;
  publicBaseUrl: string;
  /** False when PUBLIC_BASE_URL was not set (the http://localhost:PORT default): see docs/security.md, "Origin". */
  publicBaseUrlSet: boolean;
  databaseUrl: string;
  redisUrl: string | null;
  /** Prefix of every Redis key and channel, so deployments can share one Redis. */
  redisPrefix: string;
  adminSecret: string | null;
  adminAllowedIps: IpRange[];
  trustProxy: IpRange[];
  maxSubscriptionsPerUser: number;
  maxProvidersPerUser: number;
  maxSourcesPerSubscription: number;
  maxNestingDepth: number;
  maxResolvedConfigs: number;
  refreshIntervalSeconds: number;
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  fetchMaxRedirects: number;
  fetchUserAgent: string;
  fetchAllowPrivate: boolean;
  /** Upstream fetches running at once in this process, across refresher, refresh endpoint and create/add. */
  fetchConcurrency: number;
  /** A request whose headers and body have not arrived within this is closed. */
  requestTimeoutMs: number;
  /** SIGTERM exits within this, whatever upstreams and clients do. */
  shutdownTimeoutMs: number;
  defaultBanSeconds: number;
  /** Audit entries older than this many days are pruned (docs/webhooks.md). */
  auditRetentionDays: number;
  /** Seconds before each retry of a failed webhook delivery; after the last the message is failed (docs/webhooks.md). */
  webhookRetryDelays: number[];
  /** Webhook deliveries running at once in this process. */
  webhookConcurrency: number;
  /** How often this process looks for due webhook messages. */
  webhookPollMs: number;
  rateLimitPublicPerMin: number;
  rateLimitApiPerMin: number;
  rateLimitAnonPerMin: number;
  autoBanViolations: number;
  connectionLinkTemplate: string;
  inviteSecret: string | null;
  logLevel: string;
  version: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/webhooks.md). */
const DEFAULT_WEBHOOK_RETRY_DELAYS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const packageVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Reads every variable of DESIGN.md section 3; throws ConfigError listing all problems. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };
  const int = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = value(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const secondsList = (name: string, fallback: number[]): number[] => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const items = raw.split(',').map((item) => item.trim());
    if (items.length > 20 || !items.every((item) => /^\d{1,7}(\.\d{1,3})?$/.test(item))) {
      problems.push(`${name} must be up to 20 comma-separated numbers of seconds (got "${raw}")`);
      return fallback;
    }
    return items.map(Number);
  };
  const ipList = (name: string, fallback: string): IpRange[] => {
    const { ranges, invalid } = parseIpList(value(name) ?? fallback);
    if (invalid.length > 0) problems.push(`${name} has invalid IP addresses or CIDRs: ${invalid.join(', ')}`);
    return ranges;
  };

  const host = value('HOST') ?? '0.0.0.0';
  const port = int('PORT', 8080, 0, 65535);

  const publicBaseUrl = (value('PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!isHttpUrl(publicBaseUrl)) problems.push(`PUBLIC_BASE_URL must be an http(s) URL (got "${publicBaseUrl}")`);

  const databaseUrl = value('DATABASE_URL') ?? 'sqlite:./data/subweave.db';
  if (!isDatabaseUrl(databaseUrl)) {
    problems.push(`DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://... (got "${databaseUrl}")`);
  }

  const redisUrl = value('REDIS_URL') ?? null;
  if (redisUrl && !/^rediss?:\/\//i.test(redisUrl)) problems.push(`REDIS_URL must start with redis:// or rediss://`);

  const logLevel = value('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const adminSecret = value('ADMIN_SECRET') ?? null;
  const config: Config = {
    host,
    port,
    publicBaseUrl,
    publicBaseUrlSet: value('PUBLIC_BASE_URL') !== undefined,
    databaseUrl,
    redisUrl,
    redisPrefix: value('REDIS_PREFIX') ?? 'subweave',
    adminSecret,
    adminAllowedIps: ipList('ADMIN_ALLOWED_IPS', '127.0.0.1,::1'),
    trustProxy: ipList('TRUST_PROXY', ''),
    maxSubscriptionsPerUser: int('MAX_SUBSCRIPTIONS_PER_USER', 3, 0),
    maxProvidersPerUser: int('MAX_PROVIDERS_PER_USER', 5, 0),
    maxSourcesPerSubscription: int('MAX_SOURCES_PER_SUBSCRIPTION', 150, 1),
    maxNestingDepth: int('MAX_NESTING_DEPTH', 3, 0, 10),
    maxResolvedConfigs: int('MAX_RESOLVED_CONFIGS', 2000, 1),
    refreshIntervalSeconds: int('REFRESH_INTERVAL_SECONDS', 900, 1),
    fetchTimeoutMs: int('FETCH_TIMEOUT_MS', 10_000, 1),
    fetchMaxBytes: int('FETCH_MAX_BYTES', 5_242_880, 1),
    fetchMaxRedirects: int('FETCH_MAX_REDIRECTS', 3, 0, 20),
    fetchUserAgent: value('FETCH_USER_AGENT') ?? `subweave/${packageVersion}`,
    fetchAllowPrivate: bool('FETCH_ALLOW_PRIVATE', false),
    fetchConcurrency: int('FETCH_CONCURRENCY', 8, 1, 256),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 30_000, 1),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 1),
    defaultBanSeconds: int('DEFAULT_BAN_SECONDS', 3600, 1, 31_536_000),
    auditRetentionDays: int('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    webhookRetryDelays: secondsList('WEBHOOK_RETRY_DELAYS', DEFAULT_WEBHOOK_RETRY_DELAYS),
    webhookConcurrency: int('WEBHOOK_CONCURRENCY', 8, 1, 256),
    webhookPollMs: int('WEBHOOK_POLL_MS', 1000, 10, 3_600_000),
    rateLimitPublicPerMin: int('RATE_LIMIT_PUBLIC_PER_MIN', 120, 0),
    rateLimitApiPerMin: int('RATE_LIMIT_API_PER_MIN', 600, 0),
    rateLimitAnonPerMin: int('RATE_LIMIT_ANON_PER_MIN', 60, 0),
    autoBanViolations: int('AUTO_BAN_VIOLATIONS', 10, 0),
    connectionLinkTemplate: value('CONNECTION_LINK_TEMPLATE') ?? '{base_url}/connect/{provider_name}',
    inviteSecret: value('INVITE_SECRET') ?? (adminSecret ? deriveKey(adminSecret, 'subweave-invite') : null),
    logLevel,
    version: packageVersion,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

function isDatabaseUrl(url: string): boolean {
  return /^sqlite:.+/.test(url) || /^postgres(ql)?:\/\/.+/.test(url);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

function deriveKey(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(purpose).digest('hex');
}
