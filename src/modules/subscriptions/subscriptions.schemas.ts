// Request and response schemas of the subscription API: validation, serialization and OpenAPI from one definition.
import { Type, type Static } from 'typebox';
import { DateTime, OneOf, PLAIN_TEXT_PATTERN, TRIMMED_TEXT_PATTERN } from '../../http/schemas.js';
import { SOURCE_TYPES } from '../sources/classify.js';
import {
  HEADER_NAME_PATTERN,
  HEADER_VALUE_PATTERN,
  MAX_FETCH_HEADERS,
  MAX_HEADER_VALUE_LENGTH,
  MAX_USER_AGENT_LENGTH,
} from '../fetch/fetch-options.js';
import { linkSettingsInput, linkSettingsOutput } from './link-settings.js';
import { Transforms, TransformsInput } from '../transforms/transforms.schemas.js';
import { linkFields } from './public-links.js';

export const MAX_SOURCES_PER_REQUEST = 150;
export const MAX_SOURCE_DATA_LENGTH = 16_384;
/** Comments count Unicode code points after trimming; the schemas bound the raw string the same way. */
export const MAX_COMMENT_LENGTH = 256;
/** Descriptions and the sources' max_depth, as the schemas below bound them (the importer applies the same). */
export const MAX_DESCRIPTION_LENGTH = 64;
export const MAX_SOURCE_DEPTH = 3;

const FORBIDDEN_HEADER_LIST =
  '`host`, `cookie`, `authorization`, `proxy-authorization`, `content-length`, `connection`, `transfer-encoding`, ' +
  '`te`, `upgrade`';

const FetchOptionsBody = Type.Object(
  {
    user_agent: Type.Optional(
      Type.Union([Type.String({ maxLength: MAX_USER_AGENT_LENGTH, pattern: HEADER_VALUE_PATTERN }), Type.Null()], {
        description:
          'User-Agent sent instead of FETCH_USER_AGENT, at most 256 characters without CR, LF or NUL; null or "" ' +
          'means the default.',
      }),
    ),
    headers: Type.Optional(
      Type.Union(
        [
          Type.Record(
            Type.String({ pattern: HEADER_NAME_PATTERN }),
            Type.String({ maxLength: MAX_HEADER_VALUE_LENGTH, pattern: HEADER_VALUE_PATTERN }),
            { maxProperties: MAX_FETCH_HEADERS, additionalProperties: false },
          ),
          Type.Null(),
        ],
        {
          description:
            `Extra request headers, at most 8, name -> value. Names are HTTP tokens (case-insensitive, stored ` +
            `lower-case) other than ${FORBIDDEN_HEADER_LIST}; values at most 512 characters without CR, LF or NUL. ` +
            'Sent on the first request and on redirects to the same origin only.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
const FETCH_DESCRIPTION =
  'External URLs only: how to fetch this URL. Part of the source identity (id) and of the content cache key. ' +
  'null, {} or empty values mean the defaults.';

export const SourceCreate = Type.Object(
  {
    data: Type.String({
      minLength: 1,
      maxLength: MAX_SOURCE_DATA_LENGTH,
      description:
        'A proxy config URI (optionally with `#comment`), an external http(s) subscription URL, or a link to another ' +
        'subscription of this service (`{base_url}/api/v1/sub/{token}` or `{base_url}/sub/{token}`; from any other ' +
        'address too, with or without a `/{format}` segment, when the token exists). A `vmess://<base64 JSON>` ' +
        'without `#` keeps its non-empty `ps` as the comment.',
    }),
    comment: Type.Optional(
      Type.Union([Type.String({ maxLength: MAX_COMMENT_LENGTH, pattern: TRIMMED_TEXT_PATTERN }), Type.Null()], {
        description:
          'Config sources: the comment, at most 256 characters (trimmed); it wins over a `#` fragment or vmess `ps` ' +
          'in `data`. `""` means none (the host is shown); null or omitted means the one in `data`. A non-empty ' +
          'comment on another kind of source is 400 `comment_not_applicable`.',
      }),
    ),
    fetch: Type.Optional(Type.Union([FetchOptionsBody, Type.Null()], { description: FETCH_DESCRIPTION })),
    is_hidden: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], {
        description:
          "Omit this source from this subscription's own link (it still feeds subscriptions that include this one). Default false; null means the default.",
      }),
    ),
    max_depth: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: MAX_SOURCE_DEPTH }), Type.Null()], {
        description:
          'Propagation radius 0-3: the source contributes while its subscription sits at a depth <= max_depth. Default 3; null means the default.',
      }),
    ),
  },
  { description: 'A source to add. A plain string is the same as `{ "data": <string> }`.' },
);

export const SourceInput = Type.Union(
  [Type.String({ minLength: 1, maxLength: MAX_SOURCE_DATA_LENGTH }), SourceCreate],
  {
    description: 'A source string, or a SourceCreate object.',
  },
);
export type SourceInput = Static<typeof SourceInput>;

const Name = Type.String({
  minLength: 1,
  pattern: TRIMMED_TEXT_PATTERN,
  description: 'Subscription name, 1-64 characters after trimming, unique among the subscriptions of the same scope.',
});
const TransformsField = Type.Union([TransformsInput, Type.Null()], {
  description:
    'The transform chain (docs/transforms.md), at most 32 operators; `[]` or null: none. A bad operator is 400 ' +
    '`invalid_transform` with `details.index`.',
});

const Description = Type.String({
  maxLength: MAX_DESCRIPTION_LENGTH,
  pattern: PLAIN_TEXT_PATTERN,
  description: 'Free text, at most 64 characters.',
});

export const CreateSubscriptionBody = Type.Object({
  name: Name,
  description: Type.Optional(
    Type.Union([Description, Type.Null()], { description: 'Optional description, at most 64 characters.' }),
  ),
  sources: Type.Optional(
    Type.Array(SourceInput, {
      maxItems: MAX_SOURCES_PER_REQUEST,
      description: 'Initial sources, at most 150. Defaults to none.',
    }),
  ),
  ...linkSettingsInput,
  transforms: Type.Optional(TransformsField),
});

export const UpdateSubscriptionBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(
      Type.Union([Description, Type.Null()], { description: 'New description; null clears it.' }),
    ),
    ...linkSettingsInput,
    transforms: Type.Optional(TransformsField),
  },
  { description: 'At least one field; omitted fields stay unchanged.' },
);

/** Why a pasted line was not added (docs/api.md "Paste many"). */
export const PASTE_SKIP_REASONS = [
  'invalid_source',
  'invalid_url',
  'invalid_comment',
  'control_characters',
  'too_long',
  'duplicate',
  'circular_reference',
  'nesting_too_deep',
  'limit_reached',
] as const;
export type PasteSkipReason = (typeof PASTE_SKIP_REASONS)[number];

/** A pasted block: at most 1 MiB, the JSON body limit, whatever this says. */
export const MAX_PASTE_TEXT_LENGTH = 1_048_576;

export const AddSourcesBody = Type.Object(
  {
    sources: Type.Optional(
      Type.Array(SourceInput, {
        minItems: 1,
        description:
          'Sources to append, 1-150. Sources already in the subscription are skipped silently; more than 150 items or a total above MAX_SOURCES_PER_SUBSCRIPTION answers 413.',
      }),
    ),
    text: Type.Optional(
      Type.String({
        maxLength: MAX_PASTE_TEXT_LENGTH,
        description:
          'Instead of `sources`: a pasted block, one source per line (CRLF, LF or CR; blank lines ignored; at most ' +
          '1000 non-blank lines, else 413 `too_many_sources`). A block that is base64 of a URI list as a whole is ' +
          'decoded first. Each line is added or skipped on its own; the answer reports every line.',
      }),
    ),
  },
  { description: 'Exactly one of `sources` and `text`; both or neither is 400 `validation_failed`.' },
);

const PastedLineReport = Type.Object({
  line: Type.Integer({ minimum: 1, description: 'Line number in the text (in the decoded text for a base64 block).' }),
  data: Type.String({ description: 'The line, trimmed (at most its first 200 characters).' }),
  status: OneOf(['added', 'skipped'] as const, { description: 'Whether the line became a new source.' }),
  source_id: Type.Union([Type.String(), Type.Null()], { description: "Added: the new source's id; else null." }),
  reason: Type.Union([OneOf(PASTE_SKIP_REASONS), Type.Null()], {
    description: 'Skipped: the reason code (docs/api.md "Paste many"); added: null.',
  }),
  message: Type.Union([Type.String(), Type.Null()], { description: 'Skipped: a short explanation; else null.' }),
});

export const ReplaceSourcesBody = Type.Object({
  sources: Type.Array(SourceInput, {
    maxItems: MAX_SOURCES_PER_REQUEST,
    description: 'The complete new source list, 0-150 items, replacing the old one atomically.',
  }),
});

export const ReplaceTransformsBody = Type.Object({
  transforms: TransformsField,
});

export const RemoveSourcesBody = Type.Object({
  source_ids: Type.Array(Type.String({ minLength: 1, description: 'A source id.' }), {
    minItems: 1,
    description: 'Ids of the sources to remove; all must belong to the subscription or nothing is removed.',
  }),
});

export const UpdateConfigBody = Type.Object({
  config_id: Type.String({ minLength: 1, description: 'The source id of the config (or other source) to change.' }),
  comment: Type.Optional(
    Type.Union([Type.String({ maxLength: MAX_COMMENT_LENGTH, pattern: TRIMMED_TEXT_PATTERN }), Type.Null()], {
      description:
        'Comment appended as `#comment` when resolving, at most 256 characters, no `#` needed. null or "" resets it to the default (the config host). Omitted: unchanged. Config sources only.',
    }),
  ),
  is_hidden: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], { description: 'New hidden flag; null or omitted: unchanged.' }),
  ),
  max_depth: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: MAX_SOURCE_DEPTH }), Type.Null()], {
      description: 'New max_depth 0-3; null or omitted: unchanged.',
    }),
  ),
});

export const UpdateCommentBody = Type.Object({
  config_id: Type.String({ minLength: 1, description: 'The source id of the config.' }),
  comment: Type.Optional(
    Type.Union([Type.String({ maxLength: MAX_COMMENT_LENGTH, pattern: TRIMMED_TEXT_PATTERN }), Type.Null()], {
      description: 'Comment, at most 256 characters; null or "" resets it to the default.',
    }),
  ),
});

export const TokenParams = Type.Object({
  token: Type.String({ description: 'Subscription token.' }),
});

export const SourceResponse = Type.Object({
  id: Type.String({
    description:
      'Source id: first 32 hex chars of SHA-256 over the source identity; equal for the same config in every subscription.',
  }),
  source_type: OneOf(SOURCE_TYPES, { description: 'Kind of source.' }),
  data: Type.String({
    description:
      'Config URI (with `#comment` when one is set; a vmess JSON link whose `ps` is not its comment ends in a bare ' +
      '`#`), URL, or the canonical link of the referenced subscription. Sent back, it recreates the source.',
  }),
  comment: Type.Union([Type.String(), Type.Null()], {
    description: 'Comment of this config in this subscription, or null for the default.',
  }),
  order_index: Type.Integer({ minimum: 0, description: 'Position in the subscription.' }),
  is_hidden: Type.Boolean({ description: "Omitted from this subscription's own link." }),
  max_depth: Type.Integer({ minimum: 0, maximum: 3, description: 'Propagation radius 0-3.' }),
  last_fetched_at: Type.Union([DateTime('Last successful fetch of an external URL.'), Type.Null()], {
    description: 'External URLs: time of the last successful fetch; null otherwise.',
  }),
  last_error: Type.Union([Type.String(), Type.Null()], {
    description:
      'External URLs: error of the last fetch, or null. References: `subscription_deleted` when the referenced ' +
      'subscription was deleted (the reference stays and contributes nothing), else null.',
  }),
  configs_count: Type.Union([Type.Integer(), Type.Null()], {
    description: 'External URLs: configs in the cached content; null for other kinds.',
  }),
  shrink_pending: Type.Union([Type.Boolean(), Type.Null()], {
    description:
      'External URLs: true while the shrink guard holds back a shrunken result (accepted once the same result comes ' +
      'on 3 consecutive fetches, or at once by a refresh with `accept_shrink`); null for other kinds.',
  }),
  fetch: Type.Union([FetchOptionsBody, Type.Null()], {
    description: 'External URLs: the fetch options as stored (header names lower-case), or null for the defaults.',
  }),
  created_at: DateTime('When the source was added.'),
  updated_at: DateTime('When the source was last changed.'),
});

const subscriptionFields = {
  token: Type.String({ description: 'Subscription token; also the key of its public link.' }),
  ...linkFields,
  name: Type.String({ description: 'Name.' }),
  provider_name: Type.Union([Type.String(), Type.Null()], {
    description: 'Provider managing this subscription, or null.',
  }),
  description: Type.Union([Type.String(), Type.Null()], { description: 'Description or null.' }),
  sources_count: Type.Integer({ minimum: 0, description: 'Number of lines the public link serves right now.' }),
  ...linkSettingsOutput,
  transforms: Transforms,
  created_at: DateTime('Creation time.'),
  updated_at: DateTime('Last change of the subscription or its sources.'),
};

export const SubscriptionResponse = Type.Object(
  {
    ...subscriptionFields,
    sources: Type.Array(SourceResponse, { description: 'Sources in order_index order.' }),
  },
  { description: 'A subscription with its sources.' },
);

const SourceHealth = Type.Object(
  {
    sources: Type.Integer({ minimum: 0, description: 'Sources in the list, hidden ones included.' }),
    failing: Type.Integer({
      minimum: 0,
      description:
        'Sources whose `last_error` is set: a subscription URL whose last fetch failed or was held back, or a ' +
        'reference to a deleted subscription.',
    }),
    shrink_pending: Type.Integer({
      minimum: 0,
      description: 'Subscription URLs holding a shrunken result for confirmation (`shrink_pending`).',
    }),
  },
  { description: "The health of the subscription's sources, as its sources' own fields report it." },
);

export const SubscriptionListResponse = Type.Array(Type.Object({ ...subscriptionFields, health: SourceHealth }), {
  description: 'Subscriptions of the caller, oldest first, without their sources but with their health.',
});

export const PasteResponse = Type.Object(
  {
    added: Type.Integer({ minimum: 0, description: 'Lines added as new sources.' }),
    skipped: Type.Integer({ minimum: 0, description: 'Lines not added.' }),
    base64: Type.Boolean({ description: 'Whether the whole text was decoded from base64 first.' }),
    lines: Type.Array(PastedLineReport, { description: 'Every non-blank line, in order.' }),
    subscription: SubscriptionResponse,
  },
  { description: 'What a pasted block did, line by line, and the subscription afterwards.' },
);
export type PasteReport = Static<typeof PasteResponse>;

export type SourceView = Static<typeof SourceResponse>;
export type SubscriptionView = Static<typeof SubscriptionResponse>;
export type SubscriptionListItem = Static<typeof SubscriptionListResponse>[number];
export type CreateSubscriptionInput = Static<typeof CreateSubscriptionBody>;
export type UpdateSubscriptionInput = Static<typeof UpdateSubscriptionBody>;
export type UpdateConfigInput = Static<typeof UpdateConfigBody>;

export const RefreshBody = Type.Object(
  {
    accept_shrink: Type.Optional(
      Type.Boolean({
        description:
          'Accept a shrunken result of this fetch at once instead of holding it back until it has come on 3 ' +
          'consecutive fetches. Default false. An empty result is never accepted.',
      }),
    ),
  },
  { description: 'Optional; no body, an empty body or `{}` refreshes with the defaults.' },
);

export const RefreshResponse = Type.Object(
  {
    refreshed: Type.Integer({ minimum: 0, description: 'External sources fetched successfully.' }),
    failed: Type.Integer({
      minimum: 0,
      description: 'External sources whose fetch failed (their last good content is kept).',
    }),
    skipped: Type.Integer({ minimum: 0, description: 'Config and internal sources, which need no fetch.' }),
    total: Type.Integer({ minimum: 0, description: 'All sources of the subscription: refreshed + failed + skipped.' }),
    message: Type.Union([Type.String(), Type.Null()], { description: 'Short summary.' }),
    errors: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'One "<url>: <reason>" per failed source, or null when none failed.',
    }),
  },
  { description: 'Outcome of refreshing the external sources of a subscription.' },
);
