// The Provider resource (docs/admin-api.md, Endpoints) and its field rules, shared by the service, the CLI and the admin API.
import { Type, type Static } from 'typebox';
import { DateTime, PLAIN_TEXT_PATTERN } from '../../http/schemas.js';

/** 4-16 characters: lower-case letters and digits, with single hyphens only between them. */
export const PROVIDER_NAME_PATTERN = '^(?=.{4,16}$)[a-z0-9]+(?:-[a-z0-9]+)*$';
export const MAX_PROVIDER_URL_LENGTH = 2048;

export const ProviderName = Type.String({
  pattern: PROVIDER_NAME_PATTERN,
  description: 'Unique provider name: 4-16 lower-case letters and digits, single hyphens between them.',
});

export const ProviderUrl = Type.String({
  maxLength: MAX_PROVIDER_URL_LENGTH,
  pattern: PLAIN_TEXT_PATTERN,
  description: "The provider's http(s) home page shown to users; empty when none was given.",
});

export const ProviderResponse = Type.Object(
  {
    provider_hash: Type.String({ description: 'Provider id (UUID v4).' }),
    provider_name: Type.String({ description: 'Unique provider name.' }),
    provider_url: Type.String({ description: "The provider's home page, or empty." }),
    owner_id: Type.Integer({ description: 'user_id of the owning user.' }),
    is_active: Type.Boolean({ description: 'A disabled provider cannot call the API (403 account_disabled).' }),
    created_at: DateTime('Creation time.'),
  },
  { description: 'A provider account (never carries its API token).' },
);

export const ProviderWithTokenResponse = Type.Object(
  {
    ...ProviderResponse.properties,
    api_token: Type.String({ description: 'The provider API token, shown only in this response.' }),
  },
  { description: 'A provider account with a newly issued API token.' },
);

export type Provider = Static<typeof ProviderResponse>;
export type ProviderWithToken = Static<typeof ProviderWithTokenResponse>;
