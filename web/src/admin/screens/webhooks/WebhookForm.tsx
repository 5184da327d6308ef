// The fields of an endpoint (URL, events, description, enabled), for creating one and for editing one.
import { useState } from 'react';
import { Alert, Button, Checkbox, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { URI_SNIPPETS } from '../../../i18n/bidi';
import { fieldIssues } from '../../field-issues';
import { WEBHOOKS } from './strings';
import type { CreateBody, EventType } from './queries';

/** Every event type the API takes (docs/webhooks.md); a Record so a type the schema adds is a compile error here. */
const EVENT_TYPES: Record<Exclude<EventType, '*'>, true> = {
  'user.created': true,
  'user.updated': true,
  'user.disabled': true,
  'user.enabled': true,
  'user.deleted': true,
  'user.token_refreshed': true,
  'user.sign_in_link_created': true,
  'provider.created': true,
  'provider.updated': true,
  'provider.deleted': true,
  'provider.token_refreshed': true,
  'connection.requested': true,
  'connection.approved': true,
  'connection.rejected': true,
  'connection.revoked': true,
  'subscription.created': true,
  'subscription.updated': true,
  'subscription.deleted': true,
  'subscription.rotated': true,
  'source.failing': true,
  'source.recovered': true,
  'ban.created': true,
  'ban.deleted': true,
  'whitelist.changed': true,
  'settings.changed': true,
  'webhook.test': true,
};

export interface WebhookFields {
  url: string;
  events: EventType[];
  description: string;
  enabled: boolean;
}

interface Props {
  initial: WebhookFields;
  submit: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (body: CreateBody) => void;
  onCancel?: () => void;
}

export function WebhookForm({ initial, submit, pending, error, onSubmit, onCancel }: Props) {
  const { t } = useTranslation(WEBHOOKS);
  const [fields, setFields] = useState(initial);
  const issues = fieldIssues(error);
  const options = [
    { value: '*', label: t('form.everyEvent') },
    ...Object.keys(EVENT_TYPES).map((type) => ({ value: type, label: type })),
  ];
  // An issue on `events.0` belongs to the events field as a whole.
  const eventsIssue = Object.entries(issues).find(([field]) => field.startsWith('events'))?.[1];
  // The service refuses some URLs itself (scheme, credentials, a private address): said once, at the URL field.
  const urlRefusal = error instanceof ApiError && error.code === 'invalid_url' ? refusedUrl(error, t) : undefined;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ ...fields, url: fields.url.trim() });
      }}
    >
      <Stack gap="xs">
        <TextInput
          label={t('form.url')}
          value={fields.url}
          dir="ltr"
          type="url"
          required
          placeholder="https://example.com/subweave"
          error={issues['url'] ?? urlRefusal}
          onChange={(e) => setFields({ ...fields, url: e.currentTarget.value })}
        />
        <MultiSelect
          label={t('form.events')}
          description={t('form.eventsHint')}
          data={options}
          value={fields.events}
          searchable
          error={eventsIssue}
          onChange={(events) => setFields({ ...fields, events: events as EventType[] })}
        />
        <TextInput
          label={t('form.description')}
          value={fields.description}
          maxLength={256}
          error={issues['description']}
          onChange={(e) => setFields({ ...fields, description: e.currentTarget.value })}
        />
        <Checkbox
          label={t('form.enabled')}
          checked={fields.enabled}
          onChange={(e) => setFields({ ...fields, enabled: e.currentTarget.checked })}
        />
        {/* A refusal shown at its field is not repeated here. */}
        {error && Object.keys(issues).length === 0 && !urlRefusal && (
          <Alert color="red" role="alert">
            {t('refused', { message: error.message })}
          </Alert>
        )}
        <Group gap="xs">
          <Button type="submit" loading={pending}>
            {submit}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('form.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** Why the service refused the URL, in the reader's language: `details.reason` names the rule it broke. */
function refusedUrl(error: ApiError, t: TFunction): string {
  const reason = error.details?.['reason'];
  if (reason === 'scheme' || reason === 'credentials') return t(`form.urlRefused.${reason}`, URI_SNIPPETS);
  return t(typeof reason === 'string' ? 'form.urlRefused.address' : 'form.urlRefused.invalid');
}
