// The admin's branding (service name, logo, accent colour, default support link), shared by every instance like the format settings.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';
import type { ChangeLog } from '../../changes/change-log.js';
import { adminEvent } from '../../events/subjects.js';
import { errors } from '../../http/errors.js';
import { readSettings, writeSetting } from '../formats/formats.store.js';

export const BRANDING_FIELDS = ['service_name', 'logo', 'accent_color', 'support_url'] as const;
export type BrandingField = (typeof BRANDING_FIELDS)[number];

/** Every field is null until the admin sets it; the pages then show their defaults (docs/admin-api.md). */
export type Branding = Readonly<Record<BrandingField, string | null>>;
export type BrandingChange = Partial<Record<BrandingField, string | null>>;

export const NO_BRANDING: Branding = Object.freeze({
  service_name: null,
  logo: null,
  accent_color: null,
  support_url: null,
});

export const LOGO_MAX_BYTES = 64 * 1024;
export const LOGO_TYPES = ['png', 'jpeg', 'webp', 'svg+xml'] as const;
const LOGO_RE = /^data:image\/(png|jpeg|webp|svg\+xml);base64,([A-Za-z0-9+/]*={0,2})$/;

/** The format_settings row that holds the branding as JSON. */
const SETTING = 'branding';

/** What the decoded bytes must start like for the declared type, so a mislabelled file is refused. */
function looksLike(type: string, bytes: Buffer): boolean {
  switch (type) {
    case 'png':
      return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'jpeg':
      return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    case 'webp':
      return bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
    default:
      return /<svg[\s>]/.test(bytes.subarray(0, 4096).toString('utf8'));
  }
}

/** Why a logo data URL is refused, or null; the schema has already checked its shape loosely. */
export function logoProblem(logo: string): string | null {
  const match = LOGO_RE.exec(logo);
  if (!match) return 'must be a data:image/png, jpeg, webp or svg+xml URL in base64';
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length === 0) return 'is empty';
  if (bytes.length > LOGO_MAX_BYTES)
    return `is ${bytes.length} bytes once decoded; at most ${LOGO_MAX_BYTES} are allowed`;
  if (!looksLike(match[1]!, bytes)) return `does not hold an image/${match[1]} file`;
  return null;
}

/** Why a support URL is refused, or null: it becomes a link on the pages, so only absolute http(s) URLs pass. */
export function supportUrlProblem(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
    return parsed.hostname ? null : 'must name a host';
  } catch {
    return 'must be an absolute http or https URL';
  }
}

export class BrandingSettings {
  private snapshot: Branding = NO_BRANDING;

  private constructor(
    private readonly database: DatabaseHandle,
    private readonly changes: ChangeLog,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  static async start(
    database: DatabaseHandle,
    changes: ChangeLog,
    log: Pick<FastifyBaseLogger, 'warn'>,
  ): Promise<BrandingSettings> {
    const branding = new BrandingSettings(database, changes, log);
    await changes.keepLoaded(['branding'], () => branding.reload());
    return branding;
  }

  /** The branding in force: a frozen object replaced (never changed) on every reload, so it can key a cache. */
  get current(): Branding {
    return this.snapshot;
  }

  /** Applies the given fields (null clears one; absent ones stay), after checking what the schema cannot. */
  async update(change: BrandingChange): Promise<Branding> {
    const issues: { path: string; message: string }[] = [];
    if (typeof change.logo === 'string') {
      const problem = logoProblem(change.logo);
      if (problem) issues.push({ path: 'body.logo', message: `The logo ${problem}.` });
    }
    if (typeof change.support_url === 'string') {
      const problem = supportUrlProblem(change.support_url);
      if (problem) issues.push({ path: 'body.support_url', message: `The support URL ${problem}.` });
    }
    if (issues.length > 0) throw errors.validation('The branding is invalid; nothing was changed.', issues);
    const fields = BRANDING_FIELDS.filter((field) => field in change);
    const next = { ...this.snapshot, ...change };
    await this.changes.write(async (trx, record, emit) => {
      await writeSetting(trx, SETTING, JSON.stringify(next), new Date().toISOString());
      record({ kind: 'branding' });
      emit(adminEvent('settings.changed', 'settings:branding', { setting: 'branding', fields }));
    });
    return this.snapshot;
  }

  /** A stored value that no longer validates is dropped field by field, logged, so the pages keep working. */
  private async reload(): Promise<void> {
    const stored = (await readSettings(this.database.db, [SETTING])).get(SETTING);
    let parsed: Record<string, unknown> = {};
    try {
      parsed = stored ? (JSON.parse(stored) as Record<string, unknown>) : {};
    } catch (error) {
      this.log.warn({ err: error }, 'stored branding is not JSON; showing the defaults');
    }
    const next: Record<BrandingField, string | null> = { ...NO_BRANDING };
    for (const field of BRANDING_FIELDS) {
      const value = parsed[field];
      if (typeof value === 'string' && storedFieldValid(field, value)) next[field] = value;
      else if (value !== undefined && value !== null) this.log.warn({ field }, 'stored branding field is not usable');
    }
    this.snapshot = Object.freeze(next);
  }
}

/** The same rules as the API's schema and checks, for values read back from the database. */
function storedFieldValid(field: BrandingField, value: string): boolean {
  switch (field) {
    case 'service_name':
      return SERVICE_NAME_RE.test(value) && [...value].length <= 64;
    case 'logo':
      return logoProblem(value) === null;
    case 'accent_color':
      return ACCENT_RE.test(value);
    default:
      return supportUrlProblem(value) === null;
  }
}

/** 1-64 characters, none of them a control character (C0, DEL, C1) or a line or paragraph separator. */
export const SERVICE_NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+$';
const SERVICE_NAME_RE = new RegExp(SERVICE_NAME_PATTERN, 'u');
export const ACCENT_PATTERN = '^#[0-9a-fA-F]{6}$';
const ACCENT_RE = new RegExp(ACCENT_PATTERN);
