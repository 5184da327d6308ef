// Request and response schemas of GET /api/v1/admin/stats.
import { Type } from 'typebox';
import { DateTime } from '../../http/schemas.js';
import { ISO_DATE_PATTERN } from './stats.range.js';

const IsoDate = (description: string) =>
  Type.String({ pattern: ISO_DATE_PATTERN, description, examples: ['2024-06-01T00:00:00Z', '2024-06-01'] });

export const StatsQuery = Type.Object(
  {
    period: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')], {
        description:
          'Rolling range ending now: `day` = 24 h, `week` = 7 x 24 h, `month` = 30 x 24 h. Not combinable with dates.',
      }),
    ),
    start_date: Type.Optional(
      IsoDate('Range start, ISO 8601 (a date, or a date-time; no zone means UTC). Alone: the range ends now.'),
    ),
    end_date: Type.Optional(
      IsoDate(
        'Range end, ISO 8601 (a date, or a date-time; no zone means UTC). Alone: the range starts at the first recorded activity.',
      ),
    ),
  },
  { description: 'Choose either `period` or a `start_date`/`end_date` range; with neither, the last 7 days.' },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const StatsResponse = Type.Object(
  {
    period: Type.Object(
      {
        start: DateTime('Start of the range (UTC).'),
        end: DateTime('End of the range (UTC).'),
      },
      { description: 'The range the statistics cover; explicit dates are echoed normalised to UTC.' },
    ),
    total_requests: Count(
      'HTTP requests of every kind (health probes, docs and unknown paths included) in the hourly buckets overlapping the range.',
    ),
    total_subscriptions: Count('Subscriptions existing at `end` (created at or before it, not deleted).'),
    total_users: Count('Users existing at `end`.'),
    total_providers: Count('Providers existing at `end`.'),
    new_users: Count('Users created within the range and not deleted since.'),
    new_subscriptions: Count('Subscriptions created within the range and not deleted since.'),
    requests_by_kind: Type.Object(
      {
        public: Count('Public subscription link requests (/sub/{token}, /api/v1/sub/{token}).'),
        page: Count('Connection page requests (/connect/{provider_name}).'),
        user: Count('User API requests (/api/v1/subs, /api/v1/me).'),
        provider: Count('Provider API requests (/api/v1/providers).'),
        admin: Count('Admin API requests (/api/v1/admin), refused ones included.'),
        anonymous: Count('Requests that matched no route (404 not_found, 405 method_not_allowed).'),
      },
      {
        description:
          'Requests by the kind of the route they matched, over the same buckets as `total_requests`; health probes ' +
          'and API docs count only in the total.',
      },
    ),
  },
  { description: 'Usage statistics. More fields may be added; treat unknown fields as informational.' },
);
