// Reads the client's version from its User-Agent, so sing-box apps before 1.12 and Clash apps on the original core get a document they can load.
import type { Format, FormatVariant } from '../../formats/formats.js';

/** The sing-box core in SFA/SFI/SFM/SFT's User-Agent: `SFA/1.11.4 (1114; sing-box 1.11.4; language en_US)`. */
const SING_BOX_CORE = /sing-box[ /]v?(\d{1,3})\.(\d{1,3})/i;
/** The official apps carry the core's version as their own. */
const SING_BOX_APP = /^sf[aimt]\/v?(\d{1,3})\.(\d{1,3})/i;
/** Clash for Windows, ClashX and Clash for Android ran the original Clash core; their Meta builds name Meta. */
const CLASH_CLASSIC_APP = /^(?:clashforwindows|clashx|clashforandroid)\//i;
const META = /meta|mihomo/i;

/** Only this much of the header is read: versions sit at its start. */
const READ_LIMIT = 256;

/** `[major, minor]` of the sing-box core the User-Agent names, or null when it names none. */
export function singBoxVersion(userAgent: string): [number, number] | null {
  const match = SING_BOX_CORE.exec(userAgent) ?? SING_BOX_APP.exec(userAgent);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

export function isClashClassic(userAgent: string): boolean {
  return CLASH_CLASSIC_APP.test(userAgent) && !META.test(userAgent);
}

/**
 * What an older client gets instead of `format`: sing-box below 1.10 base64, below 1.12 the `sing-box-1.11` document;
 * the original Clash core the `clash-classic` one. Whatever chose the format (path, query or rule), the client's own
 * version decides, since a document it cannot load is no answer (docs/api.md, client versions).
 */
export function servedFormat(
  format: Format,
  userAgentHeader: string | string[] | undefined,
): { format: Format; variant?: FormatVariant } {
  if (format !== 'sing-box' && format !== 'mihomo') return { format };
  const userAgent = (Array.isArray(userAgentHeader) ? userAgentHeader[0] : userAgentHeader)?.slice(0, READ_LIMIT);
  if (!userAgent) return { format };
  if (format === 'mihomo') return isClashClassic(userAgent) ? { format, variant: 'clash-classic' } : { format };
  const version = singBoxVersion(userAgent);
  if (version === null) return { format };
  const [major, minor] = version;
  if (major > 1 || (major === 1 && minor >= 12)) return { format };
  return major === 1 && minor >= 10 ? { format, variant: 'sing-box-1.11' } : { format: 'base64' };
}
