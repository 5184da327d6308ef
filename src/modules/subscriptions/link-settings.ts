// A subscription's link settings (docs/api.md, Link settings): their API fields, the rules beyond the schema, and their columns.
import { Type, type Static } from 'typebox';
import { errors, type Issue } from '../../http/errors.js';
import { OneOf, PLAIN_TEXT_PATTERN } from '../../http/schemas.js';
import type { SubscriptionRow } from '../../db/types.js';
import { USERINFO_FIELDS } from '../../shared/userinfo.js';

import { USERINFO_MODES } from '../../db/column-values.js';

export type { UserinfoMode } from '../../db/column-values.js';

export const DEFAULT_UPDATE_INTERVAL_HOURS = 1;
const MAX_URL_LENGTH = 2048;
/** 9999-12-31T23:59:59Z: later expiry dates cannot be shown as dates. */
const MAX_EXPIRE = 253_402_300_799;

const Bytes = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });

const userinfoFields = {
  mode: OneOf(USERINFO_MODES, {
    description:
      '`none`: no header. `first`: the header of the first external source (in resolution order) whose last good ' +
      'fetch carried one. `sum`: upload, download and total added over the external sources that carried one (any ' +
      '`total` 0, unlimited, makes the sum 0), with the earliest non-zero expire. `fixed`: the numbers given here.',
  }),
  upload: Type.Optional(Bytes('Mode `fixed` only: bytes uploaded (missing: 0).')),
  download: Type.Optional(Bytes('Mode `fixed` only: bytes downloaded (missing: 0).')),
  total: Type.Optional(Bytes('Mode `fixed` only: the byte quota, 0 for unlimited (missing: 0).')),
  expire: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_EXPIRE,
      description: 'Mode `fixed` only: expiry in unix seconds, 0 for never (missing: 0).',
    }),
  ),
};

export const UserinfoSetting = Type.Object(userinfoFields, {
  additionalProperties: false,
  description:
    'Where the link\'s `subscription-userinfo` header (traffic and expiry) comes from. Default `{"mode": "none"}`.',
});
export type UserinfoSetting = Static<typeof UserinfoSetting>;

/** No whitespace and no control character anywhere: the URL goes into a response header as it is. */
const SiteUrl = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  pattern: '^[^\\s\\u0000-\\u001F\\u007F-\\u009F]*$',
});

/** The settings fields of create and PATCH; null means the default (no URL, no announce, interval 1, mode none). */
export const linkSettingsInput = {
  update_interval_hours: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 168 }), Type.Null()], {
      description: 'Hours between client updates, 1-168, sent as `profile-update-interval`. Default 1; null: default.',
    }),
  ),
  support_url: Type.Optional(
    Type.Union([SiteUrl, Type.Null()], {
      description:
        'Support page, an absolute http(s) URL (at most 2048 characters), sent as `support-url`; null: none.',
    }),
  ),
  web_page_url: Type.Optional(
    Type.Union([SiteUrl, Type.Null()], {
      description:
        'Web page, an absolute http(s) URL (at most 2048 characters), sent as `profile-web-page-url`; null: none.',
    }),
  ),
  announce: Type.Optional(
    Type.Union([Type.String({ maxLength: 200, pattern: PLAIN_TEXT_PATTERN }), Type.Null()], {
      description:
        'A message for the app, at most 200 characters, sent as `announce` (as `base64:` + base64 of its UTF-8 when ' +
        'it is not printable ASCII); null or "" clears it.',
    }),
  ),
  userinfo: Type.Optional(
    Type.Union([UserinfoSetting, Type.Null()], {
      description: 'Source of the `subscription-userinfo` header; null: `{"mode": "none"}`.',
    }),
  ),
};

export const linkSettingsOutput = {
  update_interval_hours: Type.Integer({ minimum: 1, maximum: 168, description: 'Hours between client updates.' }),
  support_url: Type.Union([Type.String(), Type.Null()], { description: 'Support page, or null.' }),
  web_page_url: Type.Union([Type.String(), Type.Null()], { description: 'Web page, or null.' }),
  announce: Type.Union([Type.String(), Type.Null()], { description: 'Message for the app, or null.' }),
  userinfo: Type.Object(userinfoFields, {
    description: 'Source of the usage header: `{"mode": ...}`, with the numbers given for mode `fixed`.',
  }),
};

export type LinkSettingsInput = {
  [K in keyof typeof linkSettingsInput]?: Static<(typeof linkSettingsInput)[K]>;
};
export type LinkSettingsView = { [K in keyof typeof linkSettingsOutput]: Static<(typeof linkSettingsOutput)[K]> };
export const LINK_SETTINGS_FIELDS = Object.keys(linkSettingsInput) as Array<keyof LinkSettingsInput>;

type SettingsColumns = Pick<
  SubscriptionRow,
  | 'update_interval_hours'
  | 'support_url'
  | 'web_page_url'
  | 'announce'
  | 'userinfo_mode'
  | 'userinfo_upload'
  | 'userinfo_download'
  | 'userinfo_total'
  | 'userinfo_expire'
>;

/**
 * The columns the given fields set (only those present; null meaning the default), after the rules the schema
 * cannot express: URLs must be http(s), numbers belong to mode `fixed`. Throws 400 validation_failed.
 */
export function settingsColumns(input: LinkSettingsInput): Partial<SettingsColumns> {
  const issues: Issue[] = [];
  const columns: Partial<SettingsColumns> = {};
  if (input.update_interval_hours !== undefined) {
    columns.update_interval_hours = input.update_interval_hours ?? DEFAULT_UPDATE_INTERVAL_HOURS;
  }
  for (const field of ['support_url', 'web_page_url'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null && !isWebUrl(value)) {
      issues.push({ path: `body.${field}`, message: 'must be an absolute http or https URL' });
    }
    columns[field] = value;
  }
  if (input.announce !== undefined) columns.announce = input.announce || null;
  if (input.userinfo !== undefined) {
    const userinfo = input.userinfo ?? { mode: 'none' };
    if (userinfo.mode !== 'fixed') {
      for (const field of USERINFO_FIELDS) {
        if (userinfo[field] !== undefined) {
          issues.push({ path: `body.userinfo.${field}`, message: 'is allowed only with mode "fixed"' });
        }
      }
    }
    columns.userinfo_mode = userinfo.mode;
    columns.userinfo_upload = userinfo.upload ?? null;
    columns.userinfo_download = userinfo.download ?? null;
    columns.userinfo_total = userinfo.total ?? null;
    columns.userinfo_expire = userinfo.expire ?? null;
  }
  if (issues.length > 0) throw errors.validation('The link settings are invalid.', issues);
  return columns;
}

export function settingsView(row: SettingsColumns): LinkSettingsView {
  const userinfo: LinkSettingsView['userinfo'] = { mode: row.userinfo_mode };
  if (row.userinfo_mode === 'fixed') {
    if (row.userinfo_upload !== null) userinfo.upload = row.userinfo_upload;
    if (row.userinfo_download !== null) userinfo.download = row.userinfo_download;
    if (row.userinfo_total !== null) userinfo.total = row.userinfo_total;
    if (row.userinfo_expire !== null) userinfo.expire = row.userinfo_expire;
  }
  return {
    update_interval_hours: row.update_interval_hours,
    support_url: row.support_url,
    web_page_url: row.web_page_url,
    announce: row.announce,
    userinfo,
  };
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
