// Request and response schemas of the provider API and the user's /me endpoints.
import { Type, type Static } from 'typebox';
import { DateTime, OneOf, UserIdField } from '../../http/schemas.js';
import { CONNECTION_STATUSES } from './transitions.js';

/** The `user_id` path parameter of the provider API and the provider's subscription mount. */
export const ProviderUserParams = Type.Object({
  user_id: UserIdField('The user the provider acts for: an integer > 0.'),
});

export const ProviderNameParams = Type.Object({
  provider_name: Type.String({ description: 'Name of the provider, as shown in its connection request.' }),
});

const Status = OneOf(CONNECTION_STATUSES, {
  description:
    'Connection status: `pending` (requested), `approved` (the provider may manage subscriptions) or `revoked`.',
});

const CREATED_AT = 'When the provider first asked for access (kept when a revoked connection is asked for again).';
const STATUS_CHANGED_AT =
  'When the connection took its current status: for `pending`, when the provider asked; for `approved`, when it ' +
  'was approved; for `revoked`, when it was revoked.';

export const ConnectionResponse = Type.Object(
  {
    provider_name: Type.String({ description: 'Name of the provider.' }),
    provider_url: Type.Union([Type.String(), Type.Null()], {
      description: "The provider's home page, or null when it has none.",
    }),
    is_authorized: Type.Boolean({ description: 'True exactly when the status is `approved`.' }),
    status: Type.Union([Status, Type.Null()], {
      description:
        'Current status; null when a rejected request was deleted (the provider never created subscriptions).',
    }),
    created_at: Type.Union([DateTime(CREATED_AT), Type.Null()], { description: `${CREATED_AT} Null when deleted.` }),
    status_changed_at: Type.Union([DateTime(STATUS_CHANGED_AT), Type.Null()], {
      description: `${STATUS_CHANGED_AT} Null when deleted.`,
    }),
  },
  { description: 'A provider connection as the user sees it.' },
);

export const ConnectionsResponse = Type.Object(
  {
    connections: Type.Array(ConnectionResponse, {
      description: 'Pending and approved connections, oldest first; revoked ones are left out.',
    }),
  },
  { description: "The user's current provider connections." },
);

export const ProviderConnectionResponse = Type.Object(
  {
    user_id: Type.Integer({ description: 'The user.' }),
    status: Status,
    created_at: DateTime(CREATED_AT),
    status_changed_at: DateTime(STATUS_CHANGED_AT),
  },
  { description: 'A connection as the provider sees it.' },
);

/** The sentence a provider's revoke answers with, as the original v2hub API's clients expect (docs/migrating-from-v2hub.md). */
export const PROVIDER_REVOKED_DETAIL = 'Provider connection revoked' as const;

export const ProviderRevokeResponse = Type.Object(
  {
    user_id: Type.Integer({ description: 'The user.' }),
    status: Type.Literal('revoked', { description: 'Always `revoked`.' }),
    detail: Type.Literal(PROVIDER_REVOKED_DETAIL, { description: `Always "${PROVIDER_REVOKED_DETAIL}".` }),
  },
  { description: 'The connection after the provider gave it up.' },
);

export const ProviderConnectionCreateResponse = Type.Object(
  {
    user_id: Type.Integer({ description: 'The user.' }),
    status: Status,
    connection_link: Type.Union([Type.String(), Type.Null()], {
      description:
        'Link to give the user: it leads to where the request can be viewed and approved (CONNECTION_LINK_TEMPLATE). ' +
        "Opening it approves nothing; approval needs the user's own API token.",
    }),
  },
  { description: 'A new (or re-opened) connection request.' },
);

export const MeResponse = Type.Object(
  {
    user_id: Type.Integer({ description: 'Your user id.' }),
    is_active: Type.Boolean({
      description: 'Whether your account is active (always true here: disabled accounts get 403).',
    }),
  },
  { description: 'The calling user.' },
);

export type ConnectionView = Static<typeof ConnectionResponse>;
export type ProviderConnectionView = Static<typeof ProviderConnectionResponse>;
export type ProviderConnectionCreated = Static<typeof ProviderConnectionCreateResponse>;
