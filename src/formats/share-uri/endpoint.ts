// The host and port of a share link: where they stand in the text and whether they are a usable endpoint.
const REG_NAME_RE = /^[\p{L}\p{N}\p{M}._~!$&'()*+,;=%-]+$/u;

export interface Endpoint {
  userinfo: string | null;
  host: string;
  bracketed: boolean;
  port: string | null;
}

export function splitHostPort(hostPort: string, userinfo: string | null): Endpoint | null {
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    const after = hostPort.slice(close + 1);
    if (close < 0 || (after !== '' && !after.startsWith(':'))) return null;
    return { userinfo, host: hostPort.slice(1, close), bracketed: true, port: after === '' ? null : after.slice(1) };
  }
  const colon = hostPort.indexOf(':');
  const port = colon < 0 ? null : hostPort.slice(colon + 1);
  return { userinfo, host: colon < 0 ? hostPort : hostPort.slice(0, colon), bracketed: false, port };
}

/** A host as the whole-base64 dialects (vmess JSON, ssr) may write it: an IPv6 address in brackets or bare. */
export function unbracketed(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

export function endpointProblem(endpoint: Endpoint, portOptional: boolean): string | null {
  const problem = hostProblem(endpoint.host, endpoint.bracketed);
  if (problem !== null) return problem;
  if (endpoint.port === null) return portOptional ? null : 'has no port';
  const valid = portOptional ? isPortList(endpoint.port) : isPort(endpoint.port);
  return valid ? null : `has an invalid port '${endpoint.port}'`;
}

export function hostProblem(host: string, bracketed: boolean): string | null {
  if (host === '') return 'has no host';
  if (bracketed || host.includes(':')) return isIPv6(host) ? null : `has an invalid IPv6 host '${host}'`;
  return REG_NAME_RE.test(host) ? null : `has an invalid host '${host}'`;
}

export function isPort(text: string): boolean {
  return /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;
}

/** Hysteria2 multi-port syntax: `443,5000-6000`. */
export function isPortList(text: string): boolean {
  return text.split(',').every((item) => {
    const [from, to, ...extra] = item.split('-');
    if (from === undefined || !isPort(from) || extra.length > 0) return false;
    return to === undefined || (isPort(to) && Number(from) <= Number(to));
  });
}

function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

function isIPv6(text: string): boolean {
  const address = text.replace(/%25[\w.~-]+$/, ''); // RFC 6874 zone id
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  let slots = groups.length;
  const last = groups[groups.length - 1];
  if (last?.includes('.') && !address.endsWith('::')) {
    if (!isIPv4(last)) return false;
    groups.pop();
    slots += 1; // an embedded IPv4 address fills two 16-bit groups
  }
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  return halves.length === 2 ? slots <= 7 : slots === 8;
}
