// Request and response schemas of the ban and whitelist admin endpoints.
import { Type } from 'typebox';
import { DateTime, PLAIN_TEXT_PATTERN } from '../../http/schemas.js';

export const MAX_BAN_SECONDS = 31_536_000;

const IpAddress = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const IpParams = Type.Object({
  ip_address: IpAddress(
    'IPv4 or IPv6 address, or CIDR range with its slash percent-encoded (`10.0.0.0%2F24`, `2001%3Adb8%3A%3A%2F32`).',
  ),
});

export const BanBody = Type.Object({
  ip_address: IpAddress('IPv4 or IPv6 address, or CIDR range (`10.0.0.0/24`, `2001:db8::/32`), to ban.'),
  duration_seconds: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_BAN_SECONDS,
      description: 'Ban length in seconds, 1-31536000; the server default (DEFAULT_BAN_SECONDS) when omitted.',
    }),
  ),
});

const CanonicalIp = Type.String({ description: 'The address or range in canonical form (e.g. `2001:db8::/32`).' });
const BannedUntil = DateTime('When the ban ends.');

export const BanResponse = Type.Object(
  {
    ip_address: CanonicalIp,
    banned_until: BannedUntil,
    remaining_seconds: Type.Integer({ description: 'Seconds until the ban ends.' }),
  },
  { description: 'The ban now in force; banning again replaces the previous end time.' },
);

export const BanStatusResponse = Type.Object(
  {
    ip_address: CanonicalIp,
    is_banned: Type.Boolean({
      description: 'Whether a ban is stored and not expired, even if a whitelist entry keeps it from being enforced.',
    }),
    banned_until: Type.Union([BannedUntil, Type.Null()], { description: 'When the ban ends; null when not banned.' }),
    remaining_seconds: Type.Integer({ description: 'Seconds until the ban ends; 0 when not banned.' }),
  },
  { description: 'Ban state of an address (its own ban, or a banned range covering it) or of a range.' },
);

export const UnbanResponse = Type.Object(
  {
    ip_address: CanonicalIp,
    was_banned: Type.Boolean({ description: 'False when no ban was in force, so repeating the call is safe.' }),
  },
  { description: 'Result of lifting a ban.' },
);

export const BanEntry = Type.Object(
  {
    ip_address: CanonicalIp,
    banned_until: BannedUntil,
    reason: Type.Union([Type.String(), Type.Null()], {
      description:
        'Who banned: `admin` (the admin API or CLI) or `rate_limit` (automatically, after AUTO_BAN_VIOLATIONS ' +
        'rate-limit rejections within 10 minutes); null for a ban stored without a reason.',
    }),
    banned_at: DateTime('When the ban was set (banning again sets it anew).'),
  },
  { description: 'One ban in force.' },
);

export const BanListResponse = Type.Object(
  {
    total: Type.Integer({ description: 'Number of bans in force.' }),
    entries: Type.Array(BanEntry, {
      description: 'Bans in force, the longest-lasting first; expired bans are left out.',
    }),
  },
  { description: 'Every ban in force.' },
);

export const WhitelistBody = Type.Object({
  ip_address: IpAddress('IPv4 or IPv6 address, or CIDR range, exempt from bans and rate limits.'),
  description: Type.Optional(
    Type.Union([Type.String({ maxLength: 256, pattern: PLAIN_TEXT_PATTERN }), Type.Null()], {
      description:
        'Why the address is whitelisted, at most 256 characters. Re-adding an entry without it keeps the old one.',
    }),
  ),
});

export const WhitelistEntry = Type.Object(
  {
    ip_address: CanonicalIp,
    description: Type.String({ description: 'Why the address is whitelisted; empty when not given.' }),
    added_at: DateTime('When the entry was first added.'),
  },
  { description: 'An address or range exempt from bans and rate limits.' },
);

export const WhitelistListResponse = Type.Object(
  {
    total: Type.Integer({ description: 'Number of entries.' }),
    entries: Type.Array(WhitelistEntry, { description: 'Every entry, oldest first.' }),
  },
  { description: 'The whole whitelist.' },
);

export const UnwhitelistResponse = Type.Object(
  {
    ip_address: CanonicalIp,
    was_whitelisted: Type.Boolean({
      description: 'False when the entry did not exist, so repeating the call is safe.',
    }),
  },
  { description: 'Result of removing a whitelist entry.' },
);
