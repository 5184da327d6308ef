// Xray publishes no schema, so this is one for the outbound subset we write, from the json tags of Xray's infra/conf.
import { Ajv, type ValidateFunction } from 'ajv';
import { errorText } from './schemas.js';

const str = { type: 'string' };
const port = { type: 'integer', minimum: 1, maximum: 65535 };
const strings = { type: 'array', items: str };
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const user = closed({ id: str, encryption: str, flow: str, security: str }, ['id']);
const vnext = closed(
  {
    vnext: {
      type: 'array',
      minItems: 1,
      maxItems: 1,
      items: closed({ address: str, port, users: { type: 'array', items: user } }, ['address', 'port', 'users']),
    },
  },
  ['vnext'],
);
const servers = (server: Record<string, unknown>, required: string[]) =>
  closed(
    {
      servers: {
        type: 'array',
        minItems: 1,
        maxItems: 1,
        items: closed({ address: str, port, ...server }, ['address', 'port', ...required]),
      },
    },
    ['servers'],
  );

const stream = closed(
  {
    network: { enum: ['tcp', 'raw', 'ws', 'httpupgrade', 'grpc', 'xhttp', 'kcp'] },
    security: { enum: ['none', 'tls', 'reality'] },
    tlsSettings: closed({
      serverName: str,
      alpn: strings,
      fingerprint: str,
      pinnedPeerCertSha256: str,
      // Written only under the admin's xray_allow_insecure, for cores before 26.6.22 (which still read it).
      allowInsecure: { const: true },
      echConfigList: str,
      verifyPeerCertByName: str,
    }),
    realitySettings: closed(
      { serverName: str, fingerprint: str, publicKey: str, shortId: str, spiderX: str, mldsa65Verify: str },
      ['publicKey', 'fingerprint'],
    ),
    tcpSettings: closed({
      header: closed({
        type: { const: 'http' },
        request: closed({ method: str, path: strings, headers: { type: 'object', additionalProperties: strings } }),
      }),
    }),
    wsSettings: closed({ path: str, host: str, headers: { type: 'object' } }, ['path']),
    httpupgradeSettings: closed({ path: str, host: str }, ['path']),
    grpcSettings: closed({ serviceName: str, authority: str, multiMode: { type: 'boolean' } }, ['serviceName']),
    xhttpSettings: closed(
      {
        path: str,
        host: str,
        mode: { enum: ['auto', 'packet-up', 'stream-up', 'stream-one'] },
        extra: { type: 'object' },
      },
      ['path'],
    ),
    kcpSettings: closed({}),
  },
  ['network'],
);

const outbound = (protocol: string, settings: unknown, withStream: boolean) =>
  closed(
    {
      tag: { const: 'proxy' },
      protocol: { const: protocol },
      settings,
      ...(withStream ? { streamSettings: stream } : {}),
    },
    ['tag', 'protocol', 'settings'],
  );

const schema = {
  oneOf: [
    outbound('vless', vnext, true),
    outbound('vmess', vnext, true),
    outbound('trojan', servers({ password: str }, ['password']), true),
    outbound('shadowsocks', servers({ method: str, password: str }, ['method', 'password']), true),
    outbound('socks', servers({ users: { type: 'array', items: closed({ user: str, pass: str }) } }, []), false),
    outbound(
      'wireguard',
      closed(
        {
          secretKey: str,
          address: strings,
          mtu: { type: 'integer' },
          reserved: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 }, minItems: 3, maxItems: 3 },
          peers: {
            type: 'array',
            items: closed({ publicKey: str, preSharedKey: str, endpoint: str }, ['publicKey', 'endpoint']),
          },
        },
        ['secretKey', 'address', 'peers'],
      ),
      false,
    ),
  ],
};

let validate: ValidateFunction | undefined;
export function validateXrayOutbound(value: unknown): string | null {
  validate ??= new Ajv({ strict: false, allErrors: true }).compile(schema);
  return validate(value) ? null : errorText(validate.errors);
}
