// The shape of GET .../subs/{token}/requests: the newest public fetches of a subscription.
import { Type, type Static } from 'typebox';
import { DateTime } from '../../http/schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Integer>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const RequestHistoryEntry = Type.Object({
  at: DateTime('When the answer was sent.'),
  format: Nullable(
    Type.String({
      description:
        'The format served (the `Subweave-Format` header: a variant for older clients, or `page`); for a refusal, ' +
        'the format asked for, or null.',
    }),
  ),
  rule: Nullable(Type.String({ description: 'The rule that chose the format (`Subweave-Rule`); null for a refusal.' })),
  status: Type.Integer({ description: 'HTTP status answered (200, 304, 400, 403, 404, 429...).' }),
  user_agent: Nullable(Type.String({ maxLength: 256, description: 'The User-Agent, first 256 characters.' })),
  client: Nullable(
    Type.String({
      description: "The client's network: its address (as TRUST_PROXY resolves it) masked to /24 (IPv4) or /48 (IPv6).",
    }),
  ),
  servers: Nullable(
    Type.Integer({ minimum: 0, description: 'Servers in the answer (its 304 included); null for a refusal.' }),
  ),
});

export const RequestHistoryResponse = Type.Object(
  {
    requests: Type.Array(RequestHistoryEntry, {
      maxItems: 100,
      description: 'The newest 100 public fetches across every instance, newest first.',
    }),
  },
  { description: 'Recent public fetches of the link.' },
);

export type RequestHistoryView = Static<typeof RequestHistoryResponse>;
