// The clients' published schemas as validators: mihomo's meta-json-schema (draft-07) and sing-box's (2020-12).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv2020) => Ajv2020 };
const require = createRequire(import.meta.url);

const META_PATH = new URL('../fixtures/schemas/meta-json-schema-1.19.24.json', import.meta.url);
const SING_BOX_PATH = require.resolve('@black-duty/sing-box-schema/schema.json');

/** mihomo names some types differently in its `type` key and in the schema's definitions. */
const MIHOMO_DEFINITIONS: Readonly<Record<string, string>> = { ss: 'shadowsocks', ssr: 'shadowsocksr' };

export const errorText = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');

let mihomoAjv: { ajv: Ajv; id: string } | undefined;
function mihomoSchema(): { ajv: Ajv; id: string } {
  if (!mihomoAjv) {
    const schema = JSON.parse(readFileSync(META_PATH, 'utf8')) as { $id: string };
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(schema);
    mihomoAjv = { ajv, id: schema.$id };
  }
  return mihomoAjv;
}

/** Validates one proxy map against the definition of its own type (errors against the root `oneOf` are unreadable). */
export function validateMihomoProxy(proxy: Record<string, unknown>): string | null {
  const { ajv, id } = mihomoSchema();
  const type = String(proxy.type);
  const validate = ajv.getSchema(`${id}#/definitions/proxies/definitions/${MIHOMO_DEFINITIONS[type] ?? type}`);
  if (!validate) return `no schema definition for type ${type}`;
  return validate(proxy) ? null : errorText(validate.errors);
}

export function validateMihomoDocument(document: unknown): string | null {
  const { ajv, id } = mihomoSchema();
  const validate = ajv.getSchema(id) as ValidateFunction;
  return validate(document) ? null : errorText(validate.errors);
}

/** The schema's UUID pattern demands an RFC 4122 version and variant; sing-box parses any 8-4-4-4-12 hex. */
const RFC_UUID =
  '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000)$';
const ANY_UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The schema's legacy DNS `address` pattern for DNS over HTTPS reads `^http://`; sing-box's own legacy.md lists `https://1.1.1.1/dns-query`. */
const LEGACY_HTTP = '^http:\\/\\/.*';
const LEGACY_HTTPS = '^https?:\\/\\/.*';

/**
 * The schema as ajv can use it: sing-box-schema's `"id"` annotations are not a JSON Schema keyword (ajv would take
 * them for ids), its UUID pattern is relaxed to what sing-box accepts (gofrs/uuid FromString), as libXray's test
 * ids have no version digit, and its legacy DNS over HTTPS pattern is fixed (above).
 */
function usableSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(usableSchema);
  if (typeof value !== 'object' || value === null)
    return value === RFC_UUID ? ANY_UUID : value === LEGACY_HTTP ? LEGACY_HTTPS : value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => !(key === 'id' && typeof item === 'string'))
      .map(([key, item]) => [key, usableSchema(item)]),
  );
}

let singBoxAjv: Ajv2020 | undefined;
function singBoxSchema(): Ajv2020 {
  if (!singBoxAjv) {
    singBoxAjv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(singBoxAjv);
    singBoxAjv.addFormat('uuid', new RegExp(ANY_UUID));
    singBoxAjv.addSchema(usableSchema(JSON.parse(readFileSync(SING_BOX_PATH, 'utf8'))) as object, 'sing-box');
  }
  return singBoxAjv;
}

export function validateSingBoxDocument(document: unknown): string | null {
  const validate = singBoxSchema().getSchema('sing-box') as ValidateFunction;
  return validate(document) ? null : errorText(validate.errors);
}

const SING_BOX_DEFINITIONS: Readonly<Record<string, string>> = {
  vless: 'VLESSOutboundOptions',
  vmess: 'VMessOutboundOptions',
  trojan: 'TrojanOutboundOptions',
  shadowsocks: 'ShadowsocksOutboundOptions',
  hysteria: 'HysteriaOutboundOptions',
  hysteria2: 'Hysteria2OutboundOptions',
  tuic: 'TUICOutboundOptions',
  socks: 'SocksOutboundOptions',
  anytls: 'AnyTLSOutboundOptions',
  selector: 'SelectorOutbound',
  urltest: 'URLTestOutbound',
  direct: 'DirectOutboundOptions',
  wireguard: 'WireGuardEndpointOptions',
};

/** Validates one outbound (or WireGuard endpoint) against its own definition, for readable errors. */
export function validateSingBoxOutbound(outbound: Record<string, unknown>): string | null {
  const definition = SING_BOX_DEFINITIONS[String(outbound.type)];
  if (!definition) return `no schema definition for type ${String(outbound.type)}`;
  const validate = singBoxSchema().getSchema(`sing-box#/$defs/${definition}`) as ValidateFunction;
  return validate(outbound) ? null : errorText(validate.errors);
}
