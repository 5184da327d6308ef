// The settings form's values as the user edits them (strings, usage in GB, expiry as a date) and the PATCH body of
// what changed, so a field left alone is never rewritten through a lossy conversion (bytes to GB and back).
import type { Subscription } from '../queries';
import { ApiError } from '../../../api/client';

export type UsageMode = Subscription['userinfo']['mode'];

export interface SettingsForm {
  name: string;
  description: string;
  updateIntervalHours: string;
  supportUrl: string;
  webPageUrl: string;
  announce: string;
  mode: UsageMode;
  uploadGb: string;
  downloadGb: string;
  totalGb: string;
  /** YYYY-MM-DD, or '' for never. */
  expire: string;
}

/** The usage numbers of mode `fixed`, as the API names them. */
export const USAGE_FIELDS = ['upload', 'download', 'total'] as const;
const GB = 1024 ** 3;
const DAY_END = 86_399;

export function formOf(sub: Subscription): SettingsForm {
  const { userinfo } = sub;
  return {
    name: sub.name,
    description: sub.description ?? '',
    updateIntervalHours: String(sub.update_interval_hours),
    supportUrl: sub.support_url ?? '',
    webPageUrl: sub.web_page_url ?? '',
    announce: sub.announce ?? '',
    mode: userinfo.mode,
    uploadGb: gbOf(userinfo.upload),
    downloadGb: gbOf(userinfo.download),
    totalGb: gbOf(userinfo.total),
    expire: userinfo.expire ? new Date(userinfo.expire * 1000).toISOString().slice(0, 10) : '',
  };
}

function gbOf(bytes: number | undefined): string {
  return bytes ? String(Math.round((bytes / GB) * 1000) / 1000) : '';
}

/** The fields that differ from the stored subscription, in the API's shape (null clears a setting). */
export function patchBody(sub: Subscription, form: SettingsForm) {
  const before = formOf(sub);
  const body: {
    name?: string;
    description?: string | null;
    update_interval_hours?: number | null;
    support_url?: string | null;
    web_page_url?: string | null;
    announce?: string | null;
    userinfo?: Subscription['userinfo'];
  } = {};
  if (form.name !== before.name) body.name = form.name;
  if (form.description !== before.description) body.description = form.description === '' ? null : form.description;
  if (form.updateIntervalHours !== before.updateIntervalHours) {
    // Empty: back to the default (null), as the API documents.
    body.update_interval_hours =
      form.updateIntervalHours.trim() === '' ? null : Number(latinDigits(form.updateIntervalHours));
  }
  if (form.supportUrl !== before.supportUrl) body.support_url = form.supportUrl.trim() || null;
  if (form.webPageUrl !== before.webPageUrl) body.web_page_url = form.webPageUrl.trim() || null;
  if (form.announce !== before.announce) body.announce = form.announce === '' ? null : form.announce;
  const usageChanged =
    form.mode !== before.mode ||
    (form.mode === 'fixed' &&
      (form.uploadGb !== before.uploadGb ||
        form.downloadGb !== before.downloadGb ||
        form.totalGb !== before.totalGb ||
        form.expire !== before.expire));
  if (usageChanged) body.userinfo = form.mode === 'fixed' ? fixedUsage(sub, form, before) : { mode: form.mode };
  return body;
}

function fixedUsage(sub: Subscription, form: SettingsForm, before: SettingsForm): Subscription['userinfo'] {
  const keep: Partial<Subscription['userinfo']> = sub.userinfo.mode === 'fixed' ? sub.userinfo : {};
  const bytes = (typed: string, was: string, stored: number | undefined) =>
    typed === was && stored !== undefined
      ? stored
      : typed.trim() === ''
        ? 0
        : Math.round(Number(latinDigits(typed).replace(',', '.')) * GB);
  const [year, month, day] = form.expire.split('-').map(Number);
  return {
    mode: 'fixed',
    upload: bytes(form.uploadGb, before.uploadGb, keep.upload),
    download: bytes(form.downloadGb, before.downloadGb, keep.download),
    total: bytes(form.totalGb, before.totalGb, keep.total),
    expire:
      form.expire === before.expire && keep.expire !== undefined
        ? keep.expire
        : form.expire === ''
          ? 0
          : Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1) / 1000 + DAY_END,
  };
}

/** Persian and Arabic-Indic digits as 0-9: a Persian keyboard types ۱۲, which Number() does not read. */
function latinDigits(text: string): string {
  return text
    .replace(/[۰-۹]/g, (digit) => String(digit.charCodeAt(0) - 0x6f0))
    .replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x660))
    .replace('٫', '.');
}

/**
 * Fields whose text is not a number at all, which JSON could not even carry to the API (NaN): the browser says so
 * itself. Ranges and everything else are the API's to judge.
 */
export function notNumbers(form: SettingsForm): (keyof SettingsForm)[] {
  const whole = /^\s*\d*\s*$/;
  const decimal = /^\s*(\d+([.,]\d*)?)?\s*$/;
  const wrong: (keyof SettingsForm)[] = [];
  if (!whole.test(latinDigits(form.updateIntervalHours))) wrong.push('updateIntervalHours');
  if (form.mode === 'fixed') {
    for (const name of ['uploadGb', 'downloadGb', 'totalGb'] as const)
      if (!decimal.test(latinDigits(form[name]))) wrong.push(name);
  }
  return wrong;
}

/** The form field each API field is shown at. */
const FIELD_OF: Record<string, keyof SettingsForm> = {
  name: 'name',
  description: 'description',
  update_interval_hours: 'updateIntervalHours',
  support_url: 'supportUrl',
  web_page_url: 'webPageUrl',
  announce: 'announce',
  userinfo: 'mode',
  upload: 'uploadGb',
  download: 'downloadGb',
  total: 'totalGb',
  expire: 'expire',
};

/**
 * The API's complaints by form field: `validation_failed` issues (`body.support_url`, `body.userinfo.total`) and a
 * taken name. What belongs to no field is left for the form's own alert. An issue's own text is the schema
 * validator's English ("must match a schema in anyOf"), so the field shows `refused`, pointing at its hint.
 */
export function fieldErrors(
  error: Error | null,
  nameTaken: string,
  refused: string,
): Partial<Record<keyof SettingsForm, string>> {
  if (!(error instanceof ApiError)) return {};
  if (error.code === 'name_exists') return { name: nameTaken };
  const issues = error.details?.['issues'];
  if (error.code !== 'validation_failed' || !Array.isArray(issues)) return {};
  const found: Partial<Record<keyof SettingsForm, string>> = {};
  for (const issue of issues as { path?: unknown }[]) {
    if (typeof issue.path !== 'string') continue;
    const parts = issue.path.split('.').slice(1);
    const field = FIELD_OF[parts[0] === 'userinfo' && parts[1] ? parts[1] : (parts[0] ?? '')];
    if (field) found[field] = refused;
  }
  return found;
}
