// Request and response schemas of the webhook endpoints API (admin and provider mounts alike).
import { Type } from '@fastify/type-provider-typebox';
import { DateTime, OneOf, PLAIN_TEXT_PATTERN } from '../http/schemas.js';
import { EVENT_TYPES } from '../events/event-types.js';

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where deliveries are POSTed: http(s), a public host unless FETCH_ALLOW_PRIVATE (docs/security.md).',
});
const Events = Type.Array(OneOf(['*', ...EVENT_TYPES] as const), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: 'Event types to receive (docs/webhooks.md), or `["*"]` for every one.',
});
const Description = Type.String({ maxLength: 256, pattern: PLAIN_TEXT_PATTERN, description: 'A note for you.' });
const Enabled = Type.Boolean({ description: 'false: nothing is delivered; enabling clears `disabled_reason`.' });

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description), enabled: Type.Optional(Enabled) },
  { additionalProperties: false, description: 'The endpoint to create.' },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(Enabled),
  },
  { additionalProperties: false, description: 'At least one field.' },
);

export const WebhookParams = Type.Object({
  webhook_id: Type.String({ maxLength: 64, description: 'The endpoint id (`wh_...`).' }),
});
export const DeliveryParams = Type.Object({
  webhook_id: Type.String({ maxLength: 64, description: 'The endpoint id (`wh_...`).' }),
  delivery_id: Type.String({ maxLength: 64, description: 'The delivery (message) id (`msg_...`).' }),
});
export const DeliveriesQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Newest first.' })) },
  { additionalProperties: false },
);

export const WebhookResponse = Type.Object({
  id: Type.String({ description: 'The endpoint id.' }),
  url: Type.String({ description: 'Where deliveries are POSTed.' }),
  events: Type.Array(Type.String(), { description: 'The event types it receives, or `["*"]`.' }),
  description: Type.String({ description: 'A note for you.' }),
  enabled: Type.Boolean({ description: 'false: nothing is delivered.' }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the service disabled the endpoint (no success for 3 days and 10 failed messages).',
  }),
  last_success_at: Type.Union([DateTime('The last 2xx answer.'), Type.Null()], {
    description: 'The last 2xx answer; null before the first.',
  }),
  created_at: DateTime('When it was created.'),
  updated_at: DateTime('When it last changed.'),
});

export const WebhookWithSecretResponse = Type.Object({
  ...WebhookResponse.properties,
  secret: Type.String({ description: 'The signing secret (`whsec_...`), shown only here.' }),
});

export const WebhookList = Type.Array(WebhookResponse, { description: 'Oldest first; secrets are never listed.' });

export const RotatedSecretResponse = Type.Object({
  id: Type.String({ description: 'The endpoint id.' }),
  secret: Type.String({ description: 'The new signing secret, shown only here.' }),
  previous_expires_at: DateTime('Until then deliveries carry a signature with the old secret too.'),
});

export const TestResponse = Type.Object({
  event_id: Type.String({ description: 'The webhook.test event: the `webhook-id` of its delivery.' }),
  delivery_id: Type.String({ description: 'The delivery in GET .../deliveries.' }),
});

export const DeliveryList = Type.Array(
  Type.Object({
    id: Type.String({ description: 'The delivery (message) id.' }),
    event_id: Type.String({ description: 'The `webhook-id` sent.' }),
    event_type: Type.String({ description: 'The event type.' }),
    status: OneOf(['pending', 'delivered', 'failed'] as const, {
      description: 'pending (queued or retrying), delivered (a 2xx), failed (retries exhausted).',
    }),
    attempts: Type.Array(
      Type.Object({
        time: DateTime('When the attempt started.'),
        status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no answer (timeout, refused).' }),
        duration_ms: Type.Integer({ description: 'How long the attempt took.' }),
        response: Type.String({ description: 'The first 1 KiB of the answer, or what went wrong.' }),
      }),
      { description: 'Oldest first.' },
    ),
    next_attempt_at: Type.Union([DateTime('The next retry of a pending delivery.'), Type.Null()], {
      description: 'The next attempt of a pending delivery; null otherwise.',
    }),
    created_at: DateTime('When the event was written.'),
  }),
  { description: 'Newest first; delivered and failed ones are kept 7 days.' },
);
