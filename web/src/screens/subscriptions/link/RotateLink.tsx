// Replaces the link with a new one (POST .../rotate) after a confirmation that the old link stops working, then shows
// the subscription under its new token.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../queries';
import { SUBSCRIPTIONS } from '../strings';
import { describeError } from '../errors';
import { SUBSCRIPTION_LINK } from './strings';
import { useRotate } from './queries';

export function RotateLink({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation(SUBSCRIPTION_LINK);
  const { t: ts } = useTranslation(SUBSCRIPTIONS);
  const [confirming, setConfirming] = useState(false);
  const rotate = useRotate(subscription.token);
  const navigate = useNavigate();
  const client = useQueryClient();

  const close = () => {
    rotate.reset();
    setConfirming(false);
  };
  const confirm = () =>
    rotate.mutate(undefined, {
      onSuccess: (rotated) => {
        setConfirming(false);
        void navigate(`/subs/${rotated.token}`, { replace: true, state: { rotated: true } });
        // The old token answers 404 from now on: nothing should ask for it again.
        client.removeQueries({ queryKey: ['subs', subscription.token] });
      },
    });

  return (
    <>
      <Button variant="default" onClick={() => setConfirming(true)}>
        {t('rotate.button')}
      </Button>
      <Modal
        opened={confirming}
        onClose={close}
        title={t('rotate.title')}
        closeButtonProps={{ 'aria-label': t('rotate.cancel') }}
      >
        <Stack>
          <Text>{t('rotate.body')}</Text>
          {rotate.isError && (
            <Alert color="red" role="alert">
              {describeError(rotate.error, ts)}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('rotate.cancel')}
            </Button>
            <Button color="red.9" loading={rotate.isPending} onClick={confirm}>
              {t('rotate.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
