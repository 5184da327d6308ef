// Request and response schemas of the format-rule, template and format-setting admin endpoints and of the owners' preview.
import { TransformsInput } from '../transforms/transforms.schemas.js';
import { Type } from 'typebox';
import { FORMAT_NAMES, TEMPLATED_FORMATS } from '../../formats/formats.js';
import {
  MAX_RULE_VALUE_LENGTH,
  MAX_RULES,
  MAX_HEADER_READ,
  RULE_HEADER_PATTERN,
  RULE_ID_PATTERN,
  RULE_MATCHES,
  RULE_RESULTS,
  type FormatRule,
} from './format-rules.js';

/** One of `values`, typed as their union. */
const oneOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const FormatRuleSchema = Type.Object(
  {
    id: Type.String({
      pattern: RULE_ID_PATTERN,
      description: 'Unique id (lower-case letters, digits, `-`, `_`; not `path`, `query` or `default`).',
    }),
    header: Type.String({
      pattern: RULE_HEADER_PATTERN,
      description:
        'Request header to read: an HTTP token (RFC 9110), case-insensitive, e.g. `user-agent` or `accept`. ' +
        `At most its first ${MAX_HEADER_READ} characters are compared; an absent header reads as "".`,
    }),
    match: oneOf(RULE_MATCHES, 'How `value` is compared with the header (an absent header reads as "").'),
    value: Type.String({
      minLength: 1,
      maxLength: MAX_RULE_VALUE_LENGTH,
      description:
        'Text, or a regular expression in RE2 syntax (no backreferences or lookaround: 400 invalid_pattern), ' +
        'matched in time linear in the header. At most 256 characters.',
    }),
    case_sensitive: Type.Boolean({ default: false, description: 'Compare case-sensitively (default false).' }),
    enabled: Type.Boolean({ default: true, description: 'Disabled rules are kept but never match (default true).' }),
    result: oneOf(
      [...RULE_RESULTS, 'clash'],
      'A format (`clash` is stored as `mihomo`), `page`, or `block` (403 client_blocked).',
    ),
  },
  { additionalProperties: false, description: 'One format rule; the first enabled rule that matches wins.' },
);

export const FormatRulesBody = Type.Object(
  { rules: Type.Array(FormatRuleSchema, { maxItems: MAX_RULES, description: 'The whole ordered list.' }) },
  { additionalProperties: false, description: 'Replaces the whole rule list.' },
);

export const FormatRulesResponse = Type.Object(
  { rules: Type.Array(FormatRuleSchema, { description: 'The rules in force, in order.' }) },
  { description: 'The format rule list.' },
);

export type FormatRulesBody = { rules: FormatRule[] };

export const RulePreviewBody = Type.Object(
  {
    rules: Type.Optional(FormatRulesBody.properties.rules),
    user_agent: Type.Optional(
      Type.String({ maxLength: 1024, description: 'User-Agent the rules should see (default none).' }),
    ),
    accept: Type.Optional(Type.String({ maxLength: 1024, description: 'Accept header the rules should see.' })),
  },
  {
    additionalProperties: false,
    description: 'Request headers, and a rule list to try instead of the one in force (validated as for PUT).',
  },
);

export const RulePreviewResponse = Type.Object(
  {
    format: Type.String({
      description:
        "What `Subweave-Format` would say: the format, an older client's variant (`sing-box-1.11`, `clash-classic`), `page`, or `block`.",
    }),
    rule: Type.String({ description: 'The deciding rule id, or `default`.' }),
  },
  { description: 'What the public link would answer a client sending these headers.' },
);

export const TemplateParams = Type.Object({
  format: Type.String({ maxLength: 64, description: `Templated format: ${TEMPLATED_FORMATS.join(', ')}.` }),
});

export const TemplateBody = Type.Object(
  {
    template: Type.String({
      minLength: 1,
      maxLength: 256 * 1024,
      description: 'The template document as text (YAML for mihomo, JSON for sing-box and xray).',
    }),
  },
  { additionalProperties: false, description: 'A replacement template; it must parse and keep its insertion points.' },
);

export const TemplateResponse = Type.Object(
  {
    format: Type.String({ description: 'The templated format.' }),
    template: Type.String({ description: 'The template document as text.' }),
    builtin: Type.Boolean({ description: 'True when the built-in template is in force.' }),
  },
  { description: 'The template a structured format renders into.' },
);

export const PreviewQuery = Type.Object({
  format: Type.Optional(
    Type.String({ maxLength: 64, description: `Format to render (${FORMAT_NAMES.join(', ')}); rule \`query\`.` }),
  ),
  user_agent: Type.Optional(
    Type.String({ maxLength: 1024, description: 'User-Agent the rules should see (default none).' }),
  ),
  accept: Type.Optional(Type.String({ maxLength: 1024, description: 'Accept header the rules should see.' })),
  transforms: Type.Optional(
    Type.String({
      maxLength: 65_536,
      description:
        'A transform chain to try instead of the saved one, as JSON text (`[]`: none); the answer then has `steps`. ' +
        'POST takes it as a list.',
    }),
  ),
});

export const PreviewBody = Type.Object(
  {
    format: PreviewQuery.properties.format,
    user_agent: PreviewQuery.properties.user_agent,
    accept: PreviewQuery.properties.accept,
    transforms: Type.Optional(TransformsInput),
  },
  { description: 'What GET .../preview takes as its query, with `transforms` as a list.' },
);

export const PreviewResponse = Type.Object(
  {
    format: Type.String({
      description:
        "What `Subweave-Format` says: the format, an older client's variant (`sing-box-1.11`, `clash-classic`), `page`, or `block`.",
    }),
    rule: Type.String({ description: 'The deciding rule id, or `path`, `query`, `default`.' }),
    served: Type.Integer({ description: 'Servers in the body.' }),
    skipped: Type.Array(
      Type.Object({
        data: Type.String({ description: 'The share URI that was skipped.' }),
        reason: Type.String({
          description:
            'Why the format could not express it: a sentence, or a code (`insecure_tls`, `unsupported_transport`, `unsupported_by_client`; docs/api.md).',
        }),
      }),
      { description: 'Servers left out of this format.' },
    ),
    headers: Type.Record(Type.String(), Type.String(), {
      description: 'Response headers the link would send, lower-case names.',
    }),
    body: Type.String({ description: 'The body the link would send.' }),
    steps: Type.Optional(
      Type.Array(
        Type.Object({
          index: Type.Integer({ minimum: 0, description: 'Position of the operator in the chain.' }),
          op: Type.String({ description: 'The operator.' }),
          in: Type.Integer({ minimum: 0, description: 'Servers it was given.' }),
          out: Type.Integer({ minimum: 0, description: 'Servers it kept.' }),
        }),
        { description: 'With `transforms` only: what each operator of the tried chain did, in order.' },
      ),
    ),
  },
  { description: 'What the public link answers for these request headers right now.' },
);

const xrayAllowInsecure = Type.Boolean({
  description:
    'Write `allowInsecure: true` into the xray format for links that ask for insecure TLS without a `pcs` pin, ' +
    'for apps on Xray before 26.6.22. Off (default): such servers are skipped with reason `insecure_tls`, as ' +
    'newer Xray refuses the whole config for it.',
});

export const FormatSettingsBody = Type.Object(
  { xray_allow_insecure: xrayAllowInsecure },
  { additionalProperties: false, description: 'Settings that shape the rendered formats.' },
);

export const FormatSettingsResponse = Type.Object(
  { xray_allow_insecure: xrayAllowInsecure },
  { description: 'Settings that shape the rendered formats.' },
);
