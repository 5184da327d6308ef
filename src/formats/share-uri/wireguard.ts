// WireGuard links: v2rayN's `wireguard://privateKey@host:port?publickey=&presharedkey=&address=&reserved=&mtu=`, and the
// `wg://` spellings of Sub-Store (`privatekey`, `publickey`, `ip`) and Hiddify (`pk`, `peer_public_key`, `local_address`).
import { isIP } from 'node:net';
import type { WireguardNode } from '../proxy.js';
import type { Authority, Draft, Problem } from './common.js';
import * as uri from './common.js';

/** A Curve25519 key in standard base64; `+`, `/` and `=` are taken literally (docs/architecture.md, Reading share URIs). */
const KEY_RE = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/;

function readKey(text: string | undefined, what: string): string | Problem {
  return text !== undefined && KEY_RE.test(text) ? text : uri.problem(`wireguard ${what} is not a 32-byte base64 key`);
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
  const numbers = /^\d{1,3}(?:\s*,\s*\d{1,3}){2}$/.test(text) ? uri.splitList(text).map(Number) : null;
  const decoded = numbers ?? [...Buffer.from(/^[A-Za-z0-9+/_-]{4}$/.test(text) ? text : '', 'base64')];
  return decoded.length === 3 && decoded.every((byte) => byte <= 255)
    ? decoded
    : uri.problem(`wireguard reserved '${text}' is not three bytes`);
}

export function parseWireguard(link: Authority, name: string): Draft<WireguardNode> | Problem {
  const at = uri.endpoint(link, 'wireguard', name);
  if (uri.isProblem(at)) return at;
  const { query } = link;
  const privateKey = readKey(query.get('privatekey', 'pk', 'secretKey') ?? uri.userinfoText(link), 'private key');
  if (uri.isProblem(privateKey)) return privateKey;
  const publicKey = readKey(query.get('publickey', 'peer_public_key'), 'public key');
  if (uri.isProblem(publicKey)) return publicKey;
  const presharedText = query.get('presharedkey', 'psk');
  const preSharedKey = presharedText === undefined ? undefined : readKey(presharedText, 'pre-shared key');
  if (uri.isProblem(preSharedKey)) return preSharedKey;
  const reserved = readReserved(query.get('reserved'));
  if (uri.isProblem(reserved)) return reserved;
  const addresses: string[] = [];
  for (const text of uri.splitList(query.get('address', 'ip', 'local_address'))) {
    const address = readAddress(text);
    if (address === null) return uri.problem(`wireguard address '${text}' is malformed`);
    addresses.push(address);
  }
  if (addresses.length === 0) return uri.problem('wireguard URI has no interface address');
  const mtuText = query.get('mtu');
  const mtu = mtuText === undefined ? undefined : uri.parsePort(mtuText);
  if (mtu === null) return uri.problem(`wireguard mtu '${mtuText}' is not a number`);
  return uri.compact<Draft<WireguardNode>>({
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
  const query = new uri.QueryWriter()
    .set('publickey', node.publicKey)
    .set('presharedkey', node.preSharedKey)
    .set('address', node.addresses.join(','))
    .set('reserved', node.reserved?.join(','))
    .set('mtu', node.mtu);
  return uri.authorityLink('wireguard', uri.encodeUserinfo(node.privateKey), node, query);
}
