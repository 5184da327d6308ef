// The signed-in user: their id, a new API token (shown once), and signing out.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Code, CopyButton, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession, useSignOut } from '../../shell/session';
import { ACCOUNT } from './strings';
import { useRefreshToken } from './queries';

export default function Account() {
  const { t } = useTranslation(ACCOUNT);
  const session = useSession();
  const refresh = useRefreshToken();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);

  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Paper withBorder p="md">
        <Stack gap={4}>
          <Text fw={600}>{t('userId')}</Text>
          <Text ff="monospace">{session.data?.user_id}</Text>
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('token.title')}
          </Title>
          <Text size="sm">{t('token.body')}</Text>
          {refresh.isError && (
            <Alert color="red" role="alert">
              {t('token.failed', { message: refresh.error.message })}
            </Alert>
          )}
          {refresh.data ? (
            <Stack gap="xs">
              <Text fw={600} id="new-token-label">
                {t('token.newTitle')}
              </Text>
              <Alert color="yellow" role="alert">
                {t('token.warning')}
              </Alert>
              <Code
                block
                dir="ltr"
                aria-labelledby="new-token-label"
                style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
              >
                {refresh.data.api_token}
              </Code>
              <Group gap="xs">
                <CopyButton value={refresh.data.api_token}>
                  {({ copied, copy }) => (
                    <Button onClick={copy} color={copied ? 'teal' : undefined}>
                      {copied ? t('token.copied') : t('token.copy')}
                    </Button>
                  )}
                </CopyButton>
                <Button variant="default" onClick={() => refresh.reset()}>
                  {t('token.done')}
                </Button>
              </Group>
            </Stack>
          ) : (
            <Button variant="default" w="fit-content" loading={refresh.isPending} onClick={() => setConfirming(true)}>
              {t('token.refresh')}
            </Button>
          )}
        </Stack>
      </Paper>

      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('signOut.title')}
          </Title>
          <Text size="sm">{t('signOut.body')}</Text>
          <Button
            variant="default"
            w="fit-content"
            loading={signOut.isPending}
            onClick={() => signOut.mutate(undefined, { onSuccess: () => void navigate('/sign-in') })}
          >
            {t('signOut.button')}
          </Button>
        </Stack>
      </Paper>

      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('confirm.title')}
        closeButtonProps={{ 'aria-label': t('confirm.cancel') }}
      >
        <Stack>
          <Text>{t('confirm.body')}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('confirm.cancel')}
            </Button>
            <Button
              onClick={() => {
                setConfirming(false);
                refresh.mutate();
              }}
            >
              {t('confirm.refresh')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
