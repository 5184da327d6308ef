// Request and response schemas of the audit log endpoints (GET /api/v1/admin/audit and GET /api/v1/me/audit).
import { Type, type Static } from '@fastify/type-provider-typebox';
import { DateTime, OneOf } from '../http/schemas.js';
import { ACTOR_KINDS } from './event-types.js';

const CURSOR = Type.String({
  pattern: '^[1-9][0-9]{0,15}$',
  description: 'The `next_cursor` of the previous page.',
});
const LIMIT = Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Entries per page (1-200).' });

export const MeAuditQuery = Type.Object(
  {
    since: Type.Optional(DateTime('Entries at or after this time.')),
    until: Type.Optional(DateTime('Entries before this time.')),
    cursor: Type.Optional(CURSOR),
    limit: Type.Optional(LIMIT),
  },
  { additionalProperties: false },
);
export type MeAuditQuery = Static<typeof MeAuditQuery>;

export const AdminAuditQuery = Type.Object(
  {
    actor: Type.Optional(
      Type.String({
        pattern: `^(${ACTOR_KINDS.join('|')})(:[^\\u0000-\\u001F]{1,64})?$`,
        description: 'An actor kind (`user`, `provider`, `admin`, `system`) or kind and id, e.g. `user:42`.',
      }),
    ),
    action: Type.Optional(
      Type.String({ pattern: '^[a-z_]+\\.[a-z_]+$', maxLength: 64, description: 'e.g. `subscription.update`.' }),
    ),
    target: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'e.g. `user:42`, `subscription:sub_...`.' }),
    ),
    ...MeAuditQuery.properties,
  },
  { additionalProperties: false },
);
export type AdminAuditQuery = Static<typeof AdminAuditQuery>;

export const AuditEntry = Type.Object({
  id: Type.String({ description: 'The entry id (ascending with time).' }),
  time: DateTime('When the change committed.'),
  actor: Type.Object(
    {
      kind: OneOf(ACTOR_KINDS, { description: 'user, provider, admin or system.' }),
      id: Type.String({ description: 'A user id, a provider name, `api`/`cli`/`import` for admins, a component.' }),
    },
    { description: 'Who made the change.' },
  ),
  client_ip: Type.Union([Type.String(), Type.Null()], {
    description: 'The client address of the request; null for the CLI and importer (and, in /me/audit, for others).',
  }),
  request_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The `x-request-id` of the request; null like `client_ip`.',
  }),
  action: Type.String({ description: 'e.g. `subscription.update`.' }),
  target: Type.String({ description: 'e.g. `subscription:sub_...`.' }),
  event_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The event this entry records (docs/webhooks.md); null for webhook endpoint management.',
  }),
  summary: Type.Record(Type.String(), Type.Unknown(), {
    description: 'What changed: names and counts, never secret values.',
  }),
});

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry, { description: 'Newest first.' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for older entries.' }),
});
export type AuditPage = Static<typeof AuditPage>;
