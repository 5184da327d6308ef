// VMess links in both forms: v2rayN's `vmess://base64(JSON)` (port and aid as strings or numbers) and `vmess://uuid@host:port?...`.
import { UUID_RE } from './check.js';
import { unbracketed } from './endpoint.js';
import type { Tls, Transport, VmessNode } from '../proxy.js';
import type { Draft, Problem } from './common.js';
import * as uri from './common.js';
import {
  grpcTransport,
  h2Transport,
  httpHeaderTransport,
  httpUpgradeTransport,
  kcpTransport,
  readStream,
  wsTransport,
  xhttpTransport,
} from './transport.js';

/** What mihomo, sing-box and Xray all accept; anything else means `auto` to v2rayN and Xray too. */
const CIPHERS = new Set(['auto', 'none', 'zero', 'aes-128-gcm', 'chacha20-poly1305']);

function cipher(text: string | undefined): string {
  const lower = (text ?? 'auto').toLowerCase();
  return CIPHERS.has(lower) ? lower : 'auto';
}

function alterId(text: string | undefined): number | Problem {
  if (text === undefined) return 0;
  return /^\d{1,5}$/.test(text) ? Number(text) : uri.problem(`vmess alterId '${text}' is not a number`);
}

/** `vmess://uuid@host:port?...` */
export function parseVmessUri(body: string, name: string): Draft<VmessNode> | Problem {
  const link = uri.readAuthority('vmess', body);
  if (uri.isProblem(link)) return link;
  const at = uri.endpoint(link, 'vmess', name);
  if (uri.isProblem(at)) return at;
  const uuid = uri.percentDecode(link.userinfo ?? '');
  if (!UUID_RE.test(uuid)) return uri.problem('vmess user id is not a UUID');
  const aid = alterId(link.query.get('aid', 'alterId'));
  if (uri.isProblem(aid)) return aid;
  const stream = readStream(link.query, false);
  if (uri.isProblem(stream)) return stream;
  return uri.compact<Draft<VmessNode>>({
    protocol: 'vmess',
    ...at,
    uuid: uuid.toLowerCase(),
    alterId: aid,
    cipher: cipher(link.query.get('encryption', 'scy')),
    ...stream,
  });
}

/** v2rayN's form, from the JSON object the check decoded out of the base64 body. */
export function parseVmessJson(record: Record<string, unknown>, name: string): Draft<VmessNode> | Problem {
  const json = uri.Query.fromRecord(record);
  const port = uri.parsePort(json.get('port'));
  if (port === null) return uri.problem('vmess JSON has no valid port');
  const uuid = json.get('id') ?? '';
  if (!UUID_RE.test(uuid)) return uri.problem('vmess id is not a UUID');
  const aid = alterId(json.get('aid'));
  const transport = jsonTransport(json);
  const tls = jsonTls(json);
  if (uri.isProblem(aid)) return aid;
  if (uri.isProblem(transport)) return transport;
  if (tls !== undefined && uri.isProblem(tls)) return tls;
  return uri.compact<Draft<VmessNode>>({
    protocol: 'vmess',
    name: name || (typeof record.ps === 'string' ? record.ps.trim() : ''),
    server: unbracketed(json.get('add') ?? ''),
    port,
    uuid: uuid.toLowerCase(),
    alterId: aid,
    cipher: cipher(json.get('scy')),
    transport,
    tls,
  });
}

/** v2rayN's `net` and `type`: `type` is the header type (tcp, kcp), the gRPC mode or the xhttp mode. */
function jsonTransport(json: uri.Query): Transport | Problem {
  const net = (json.get('net') ?? 'tcp').toLowerCase();
  const type = json.get('type');
  const host = json.get('host');
  const path = json.get('path');
  switch (net) {
    case 'tcp':
    case 'raw':
      return type?.toLowerCase() === 'http' ? httpHeaderTransport(host, path, json.get('method')) : { type: 'tcp' };
    case 'ws':
      return wsTransport(path, host, json.get('ed'), json.get('eh'));
    case 'httpupgrade':
      return httpUpgradeTransport(path, host, json.get('ed'));
    case 'grpc':
      return grpcTransport(path ?? '', json.get('authority') ?? host, type?.toLowerCase() === 'multi');
    case 'h2':
      return h2Transport(host, path);
    case 'http':
      return type?.toLowerCase() === 'http'
        ? httpHeaderTransport(host, path, json.get('method'))
        : h2Transport(host, path);
    case 'xhttp':
    case 'splithttp':
      return xhttpTransport(path, host, type?.toLowerCase() === 'none' ? undefined : type, json.get('extra'));
    case 'kcp':
      return kcpTransport(path, type);
    case 'quic':
      return { type: 'quic' };
    default:
      return uri.problem(`unsupported transport '${net}'`);
  }
}

/** `tls` is `tls` (or any value ending in tls) or empty; `reality` with `pbk`/`sid`/`spx` is this project's extension. */
function jsonTls(json: uri.Query): Tls | undefined | Problem {
  const security = (json.get('tls') ?? '').toLowerCase();
  if (security === '' || security === 'none') return undefined;
  if (security !== 'reality' && !security.endsWith('tls')) return uri.problem(`unsupported vmess tls '${security}'`);
  const tls = uri.readTls(json);
  if (uri.isProblem(tls) || security !== 'reality') return tls;
  const reality = uri.readReality(json);
  return uri.isProblem(reality) ? reality : { ...tls, reality };
}

/** v2rayN writes early data into the path as `?ed=N`. */
function withEarlyData(path: string, ed: number | undefined): string {
  return ed === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}ed=${ed}`;
}

/** v2rayN's `net`/`type`/`host`/`path` for a transport, plus the members only this project's parser reads. */
function jsonTransportFields(transport: Transport): Record<string, string | undefined> {
  switch (transport.type) {
    case 'tcp':
      return { net: 'tcp', type: 'none' };
    case 'http':
      return {
        net: 'tcp',
        type: 'http',
        host: transport.host.join(','),
        path: transport.path.join(','),
        method: transport.method,
      };
    case 'ws': {
      const path = withEarlyData(transport.path, transport.maxEarlyData);
      return { net: 'ws', type: 'none', host: transport.host, path, eh: transport.earlyDataHeaderName };
    }
    case 'httpupgrade':
      return {
        net: 'httpupgrade',
        type: 'none',
        host: transport.host,
        path: withEarlyData(transport.path, transport.earlyData),
      };
    case 'grpc':
      return {
        net: 'grpc',
        type: transport.multiMode ? 'multi' : 'gun',
        host: transport.authority,
        path: transport.serviceName,
      };
    case 'h2':
      return { net: 'h2', type: 'none', host: transport.host.join(','), path: transport.path };
    case 'xhttp':
      return { net: 'xhttp', type: transport.mode, host: transport.host, path: transport.path, extra: transport.extra };
    case 'kcp':
      return { net: 'kcp', type: transport.headerType ?? 'none', path: transport.seed };
    case 'quic':
      return { net: 'quic', type: 'none' };
  }
}

export function writeVmess(node: VmessNode): string {
  const { tls } = node;
  const { net, type, host, path, ...transportExtras } = jsonTransportFields(node.transport);
  const json: Record<string, string | undefined> = {
    v: '2',
    ps: node.name,
    add: node.server,
    port: String(node.port),
    id: node.uuid,
    aid: String(node.alterId),
    scy: node.cipher,
    net,
    type: type ?? '',
    host: host ?? '',
    path: path ?? '',
    tls: tls === undefined ? '' : tls.reality ? 'reality' : 'tls',
    sni: tls?.serverName ?? '',
    alpn: tls?.alpn?.join(',') ?? '',
    fp: tls?.clientFingerprint ?? '',
    allowInsecure: tls?.insecure ? '1' : undefined,
    pcs: tls?.pinnedCertSha256,
    vcn: tls?.verifyPeerCertByName,
    ech: tls?.ech,
    disable_sni: tls?.disableSni ? '1' : undefined,
    pbk: tls?.reality?.publicKey,
    sid: tls?.reality?.shortId,
    spx: tls?.reality?.spiderX,
    ...transportExtras,
  };
  return `vmess://${Buffer.from(JSON.stringify(uri.compact(json)), 'utf8').toString('base64')}`;
}
