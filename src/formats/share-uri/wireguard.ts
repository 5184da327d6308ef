// WireGuard links: v2rayN's `wireguard://privateKey@host:port?publickey=&presharedkey=&address=&reserved=&mtu=`, and the
// `wg://` spellings of Sub-Store (`privatekey`, `publickey`, `ip`) and Hiddify (`pk`, `peer_public_key`, `local_address`).
import { isIP } from 'node:net';
import type { WireguardNode } from '../proxy.js';
import {
  type Authority,
  type Draft,
  type Problem,
  QueryWriter,
  authorityLink,
  compact,
  encodeUserinfo,
  endpoint,
  isProblem,
  parsePort,
  problem,
  splitList,
  userinfoText,
} from './common.js';

/** A Curve25519 key in standard base64; `+`, `/` and `=` are taken literally (pitfall 8). */
const KEY_RE = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/;

function readKey(text: string | undefined, what: string): string | Problem {
  return text !== undefined && KEY_RE.test(text) ? text : problem(`wireguard ${what} is not a 32-byte base64 key`);
}

/** `10.0.0.2/32`, `[fd00::2]/128` or a bare address, which gets a single-host prefix. */
function readAddress(text: string): string | null {
  const match = /^\[?([^\]/]+)\]?(?:\/(\d{1,3}))?$/.exec(text);
  const address = match?.[1] ?? '';
  const family = isIP(address);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  const prefix = match?.[2] === undefined ? max : Number(match[2]);
  return prefix <= max ? `${address}/${prefix}` : null;
}

/** Three bytes, as `1,2,3` or as the base64 of the bytes. */
function readReserved(text: string | undefined): number[] | undefined | Problem {
  if (text === undefined) return undefined;
  const numbers = /^\d{1,3}(?:\s*,\s*\d{1,3}){2}$/.test(text) ? splitList(text).map(Number) : null;
  const decoded = numbers ?? [...Buffer.from(/^[A-Za-z0-9+/_-]{4}$/.test(text) ? text : '', 'base64')];
  return decoded.length === 3 && decoded.every((byte) => byte <= 255)
    ? decoded
    : problem(`wireguard reserved '${text}' is not three bytes`);
}

export function parseWireguard(link: Authority, name: string): Draft<WireguardNode> | Problem {
  const at = endpoint(link, 'wireguard', name);
  if (isProblem(at)) return at;
  const { query } = link;
  const privateKey = readKey(query.get('privatekey', 'pk', 'secretKey') ?? userinfoText(link), 'private key');
  if (isProblem(privateKey)) return privateKey;
  const publicKey = readKey(query.get('publickey', 'peer_public_key'), 'public key');
  if (isProblem(publicKey)) return publicKey;
  const presharedText = query.get('presharedkey', 'psk');
  const preSharedKey = presharedText === undefined ? undefined : readKey(presharedText, 'pre-shared key');
  if (isProblem(preSharedKey)) return preSharedKey;
  const reserved = readReserved(query.get('reserved'));
  if (isProblem(reserved)) return reserved;
  const addresses: string[] = [];
  for (const text of splitList(query.get('address', 'ip', 'local_address'))) {
    const address = readAddress(text);
    if (address === null) return problem(`wireguard address '${text}' is malformed`);
    addresses.push(address);
  }
  if (addresses.length === 0) return problem('wireguard URI has no interface address');
  const mtuText = query.get('mtu');
  const mtu = mtuText === undefined ? undefined : parsePort(mtuText);
  if (mtu === null) return problem(`wireguard mtu '${mtuText}' is not a number`);
  return compact<Draft<WireguardNode>>({
    protocol: 'wireguard',
    ...at,
    privateKey,
    publicKey,
    preSharedKey,
    addresses,
    reserved,
    mtu,
  });
}

export function writeWireguard(node: WireguardNode): string {
  const query = new QueryWriter()
    .set('publickey', node.publicKey)
    .set('presharedkey', node.preSharedKey)
    .set('address', node.addresses.join(','))
    .set('reserved', node.reserved?.join(','))
    .set('mtu', node.mtu);
  return authorityLink('wireguard', encodeUserinfo(node.privateKey), node, query);
}
