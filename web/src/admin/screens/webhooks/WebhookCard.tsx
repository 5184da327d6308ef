// One endpoint: what it receives and its state, with edit, test, rotate (secret shown once), delete and its delivery log.
import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../useConfirm';
import { WEBHOOKS } from './strings';
import {
  useDeleteWebhook,
  useRotateSecret,
  useSendTest,
  useUpdateWebhook,
  type EventType,
  type Webhook,
} from './queries';
import { WebhookForm } from './WebhookForm';
import { SecretNotice } from './SecretNotice';
import { Deliveries } from './Deliveries';

export function WebhookCard({ webhook }: { webhook: Webhook }) {
  const { t, i18n } = useTranslation(WEBHOOKS);
  const update = useUpdateWebhook(webhook.id);
  const remove = useDeleteWebhook(webhook.id);
  const rotate = useRotateSecret(webhook.id);
  const test = useSendTest(webhook.id);
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const confirm = useConfirm(
    (kind: 'rotate' | 'remove') => ({
      title: t(`card.${kind}Title`),
      body: t(`card.${kind}Body`, { url: webhook.url }),
      confirm: t(`card.${kind}Confirm`),
      cancel: t('form.cancel'),
    }),
    (kind) => (kind === 'rotate' ? rotate : remove).mutate(undefined),
  );
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const failure = remove.error ?? rotate.error ?? test.error;
  const titleId = `webhook-${webhook.id}`;

  return (
    <Paper withBorder p="sm" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={700} dir="ltr" id={titleId} style={{ wordBreak: 'break-all' }}>
            {webhook.url}
          </Text>
          <Badge color={webhook.enabled ? 'green' : 'gray'} variant="light" c="bright" style={{ flexShrink: 0 }}>
            {webhook.enabled ? t('card.enabled') : t('card.disabled')}
          </Badge>
        </Group>
        {webhook.description && <Text size="sm">{webhook.description}</Text>}
        <Text size="sm">{t('card.events', { events: webhook.events.join(', ') })}</Text>
        <Text size="sm" c="dimmed">
          {webhook.last_success_at
            ? t('card.lastSuccess', { time: dates.format(new Date(webhook.last_success_at)) })
            : t('card.neverSucceeded')}
        </Text>
        {webhook.disabled_reason && (
          <Alert color="red">{t('card.disabledReason', { reason: webhook.disabled_reason })}</Alert>
        )}
        {rotate.data && (
          <SecretNotice
            title={t('secret.rotatedTitle')}
            secret={rotate.data.secret}
            previousExpiresAt={rotate.data.previous_expires_at}
            onDone={() => rotate.reset()}
          />
        )}
        {test.isSuccess && (
          <Alert color="green" role="status">
            {t('card.testSent')}
          </Alert>
        )}
        {failure && (
          <Alert color="red" role="alert">
            {t('refused', { message: failure.message })}
          </Alert>
        )}
        {editing ? (
          <WebhookForm
            initial={{
              url: webhook.url,
              events: webhook.events as EventType[],
              description: webhook.description,
              enabled: webhook.enabled,
            }}
            submit={t('form.save')}
            pending={update.isPending}
            error={update.error}
            onSubmit={(body) => update.mutate(body, { onSuccess: () => setEditing(false) })}
            onCancel={() => {
              update.reset();
              setEditing(false);
            }}
          />
        ) : (
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(true)}>
              {t('card.edit')}
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={test.isPending}
              onClick={() => test.mutate(undefined, { onSuccess: () => setShowLog(true) })}
            >
              {t('card.test')}
            </Button>
            <Button size="xs" variant="default" loading={rotate.isPending} onClick={() => confirm.ask('rotate')}>
              {t('card.rotate')}
            </Button>
            <Button
              size="xs"
              variant="default"
              color="red"
              loading={remove.isPending}
              onClick={() => confirm.ask('remove')}
            >
              {t('card.remove')}
            </Button>
            <Button size="xs" variant="subtle" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
              {showLog ? t('card.hideDeliveries') : t('card.showDeliveries')}
            </Button>
          </Group>
        )}
        {showLog && <Deliveries webhookId={webhook.id} headingId={`${titleId}-log`} />}
      </Stack>
      {confirm.dialog}
    </Paper>
  );
}
