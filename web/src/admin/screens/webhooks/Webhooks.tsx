// The admin console's webhooks screen: create an endpoint (its secret shown once) and manage the existing ones.
import { useState } from 'react';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ADMIN } from '../../strings';
import { WEBHOOKS } from './strings';
import { useCreateWebhook, useWebhooks } from './queries';
import { WebhookCard } from './WebhookCard';
import { WebhookForm } from './WebhookForm';
import { SecretNotice } from './SecretNotice';

export default function Webhooks() {
  const { t } = useTranslation(WEBHOOKS);
  const admin = useTranslation(ADMIN).t;
  const webhooks = useWebhooks();
  const create = useCreateWebhook();
  // A new form after each creation, so its fields start empty.
  const [formKey, setFormKey] = useState(0);

  return (
    <Stack>
      <Title order={3}>{admin('nav.webhooks')}</Title>
      <Text>{t('intro')}</Text>
      {create.data && (
        <SecretNotice title={t('secret.createdTitle')} secret={create.data.secret} onDone={() => create.reset()} />
      )}
      <Paper withBorder p="sm" component="section" aria-labelledby="new-webhook">
        <Stack gap="xs">
          <Title order={4} id="new-webhook">
            {t('form.createTitle')}
          </Title>
          <WebhookForm
            key={formKey}
            initial={{ url: '', events: ['*'], description: '', enabled: true }}
            submit={t('form.create')}
            pending={create.isPending}
            error={create.error}
            onSubmit={(body) => create.mutate(body, { onSuccess: () => setFormKey(formKey + 1) })}
          />
        </Stack>
      </Paper>
      {webhooks.isError && <Alert color="red">{t('loadFailed', { message: webhooks.error.message })}</Alert>}
      {webhooks.data?.length === 0 && <Text>{t('none')}</Text>}
      {webhooks.data?.map((webhook) => (
        <WebhookCard key={webhook.id} webhook={webhook} />
      ))}
    </Stack>
  );
}
