// How a v2ray-family link says which transport carries it (`type=ws&path=...`), read and written in one place.
import type { Tls, Transport } from '../proxy.js';
import type { Problem, Query, QueryWriter } from './common.js';
import * as uri from './common.js';

const EARLY_DATA_RE = /^\d{1,9}$/;

/**
 * A ws path may carry its early-data size as `?ed=N` (v2rayN, Xray); it is taken out into `maxEarlyData`. The path
 * was percent-decoded once already and is not decoded again, so an escaped `%26ed%3D` stays in the path.
 */
function splitEarlyData(path: string): { path: string; ed?: number } {
  const question = path.indexOf('?');
  if (question < 0) return { path };
  const params = path.slice(question + 1).split('&');
  const index = params.findIndex((param) => /^ed=\d{1,9}$/.test(param));
  if (index < 0) return { path };
  const ed = Number(params[index]?.slice(3));
  params.splice(index, 1);
  const base = path.slice(0, question);
  return { path: params.length > 0 ? `${base}?${params.join('&')}` : base, ed };
}

/** `ed` from the query is used when the path has none; a value that is not a small whole number refuses the link. */
export function wsTransport(
  rawPath: string | undefined,
  host: string | undefined,
  ed: string | undefined,
  earlyDataHeaderName: string | undefined,
): Transport | Problem {
  const { path, ed: pathEd } = splitEarlyData(rawPath ?? '/');
  if (ed !== undefined && !EARLY_DATA_RE.test(ed))
    return uri.problem(`ws early data size '${ed}' is not a whole number`);
  const maxEarlyData = pathEd ?? (ed === undefined ? undefined : Number(ed));
  return uri.compact({ type: 'ws' as const, path: path === '' ? '/' : path, host, maxEarlyData, earlyDataHeaderName });
}

export function httpHeaderTransport(host: string | undefined, path: string | undefined, method?: string): Transport {
  const paths = uri.splitList(path);
  return uri.compact({
    type: 'http' as const,
    host: uri.splitList(host),
    path: paths.length > 0 ? paths : ['/'],
    method,
  });
}

/** Early data as `?ed=N` in the path (mihomo's converter reads it there) or as the link's `ed`; other values are ignored. */
export function httpUpgradeTransport(
  rawPath: string | undefined,
  host: string | undefined,
  ed: string | undefined,
): Transport {
  const { path, ed: pathEd } = splitEarlyData(rawPath ?? '/');
  const earlyData = pathEd ?? (ed !== undefined && EARLY_DATA_RE.test(ed) ? Number(ed) : undefined);
  return uri.compact({ type: 'httpupgrade' as const, path: path === '' ? '/' : path, host, earlyData });
}

export function grpcTransport(serviceName: string, authority: string | undefined, multiMode: boolean): Transport {
  return uri.compact({ type: 'grpc' as const, serviceName, authority, multiMode: multiMode || undefined });
}

export function xhttpTransport(
  path: string | undefined,
  host: string | undefined,
  mode: string | undefined,
  extra: string | undefined,
): Transport {
  return uri.compact({ type: 'xhttp' as const, path: path ?? '/', host, mode, extra });
}

export function h2Transport(host: string | undefined, path: string | undefined): Transport {
  return { type: 'h2', path: path ?? '/', host: uri.splitList(host) };
}

/** Header types that mean "no header". */
function headerType(text: string | undefined): string | undefined {
  return text === undefined || text.toLowerCase() === 'none' ? undefined : text;
}

export function kcpTransport(seed: string | undefined, header: string | undefined): Transport {
  return uri.compact({ type: 'kcp' as const, seed, headerType: headerType(header) });
}

/** `type=` and its companions in a vless, trojan or vmess (URI form) link. */
export function readTransport(query: Query): Transport | Problem {
  const type = (query.get('type') ?? 'tcp').toLowerCase();
  const host = query.get('host');
  const path = query.get('path');
  switch (type) {
    case 'tcp':
    case 'raw':
      return headerType(query.get('headerType'))?.toLowerCase() === 'http'
        ? httpHeaderTransport(host, path, query.get('method'))
        : { type: 'tcp' };
    case 'ws':
    case 'websocket':
      return wsTransport(path, host, query.get('ed'), query.get('eh'));
    case 'httpupgrade':
      return httpUpgradeTransport(path, host, query.get('ed'));
    case 'grpc':
    case 'gun':
      return grpcTransport(
        query.get('serviceName') ?? '',
        query.get('authority'),
        query.get('mode')?.toLowerCase() === 'multi',
      );
    case 'http':
    case 'h2':
      return h2Transport(host, path);
    case 'xhttp':
    case 'splithttp':
      return xhttpTransport(path, host, query.get('mode'), query.get('extra'));
    case 'kcp':
    case 'mkcp':
      return kcpTransport(query.get('seed'), query.get('headerType'));
    case 'quic':
      return { type: 'quic' };
    default:
      return uri.problem(`unsupported transport '${type}'`);
  }
}

/** `type`, `host` and `path` of the HTTP-based transports that carry one host and one path. */
function writeHostPath(query: QueryWriter, transport: Extract<Transport, { type: 'ws' | 'httpupgrade' | 'xhttp' }>) {
  return query.set('type', transport.type).set('host', transport.host).set('path', transport.path);
}

export function writeTransport(query: QueryWriter, transport: Transport): void {
  switch (transport.type) {
    case 'tcp':
      query.set('type', 'tcp');
      return;
    case 'http':
      query
        .set('type', 'tcp')
        .set('headerType', 'http')
        .set('host', transport.host.join(','))
        .set('path', transport.path.join(','))
        .set('method', transport.method);
      return;
    case 'ws':
      writeHostPath(query, transport).set('ed', transport.maxEarlyData).set('eh', transport.earlyDataHeaderName);
      return;
    case 'httpupgrade':
      writeHostPath(query, transport).set('ed', transport.earlyData);
      return;
    case 'grpc':
      query
        .set('type', 'grpc')
        .set('serviceName', transport.serviceName)
        .set('authority', transport.authority)
        .set('mode', transport.multiMode ? 'multi' : undefined);
      return;
    case 'h2':
      query.set('type', 'http').set('host', transport.host.join(',')).set('path', transport.path);
      return;
    case 'xhttp':
      writeHostPath(query, transport).set('mode', transport.mode).set('extra', transport.extra);
      return;
    case 'kcp':
      query.set('type', 'kcp').set('headerType', transport.headerType).set('seed', transport.seed);
      return;
    case 'quic':
      query.set('type', 'quic');
      return;
  }
}

/** The transport and `security=` TLS of a vless, trojan or vmess (URI form) link, or the first problem in them. */
export function readStream(query: Query, alwaysTls: boolean): { transport: Transport; tls?: Tls } | Problem {
  const transport = readTransport(query);
  if (uri.isProblem(transport)) return transport;
  const tls = uri.readSecurity(query, alwaysTls);
  if (tls !== undefined && uri.isProblem(tls)) return tls;
  return uri.compact({ transport, tls });
}
