// Deleting a subscription, confirmed: its link answers 404 at once and its sources go with it.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../queries';
import { SUBSCRIPTIONS } from '../strings';
import { describeError } from '../errors';
import { SUBSCRIPTION_SETTINGS } from './strings';
import { useDeleteSubscription } from './queries';

export function DeleteSubscription({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation(SUBSCRIPTION_SETTINGS);
  const { t: ts } = useTranslation(SUBSCRIPTIONS);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSubscription(subscription.token);
  const navigate = useNavigate();
  const client = useQueryClient();

  const close = () => {
    remove.reset();
    setConfirming(false);
  };
  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        void navigate('/subs', { replace: true });
        client.removeQueries({ queryKey: ['subs', subscription.token] });
      },
    });

  return (
    <>
      <Group gap="sm" justify="space-between" mt="sm">
        <Text size="sm">{t('delete.hint')}</Text>
        <Button variant="default" onClick={() => setConfirming(true)}>
          {t('delete.button')}
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={close}
        title={t('delete.title', { name: subscription.name })}
        closeButtonProps={{ 'aria-label': t('delete.cancel') }}
      >
        <Stack>
          <Text>{t('delete.body')}</Text>
          {remove.isError && (
            <Alert color="red" role="alert">
              {describeError(remove.error, ts)}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('delete.cancel')}
            </Button>
            <Button color="red.9" loading={remove.isPending} onClick={confirm}>
              {t('delete.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
