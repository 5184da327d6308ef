// The providers (bots, resellers) that asked to manage the user's subscriptions: approve, reject or revoke each.
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';
import { Loading } from '../../shell/Layout';
import { CONNECTIONS } from './strings';
import { useConnectionAction, useConnections, type ConnectionAction } from './queries';

const KNOWN_ERRORS = ['connection_not_pending', 'provider_limit_reached', 'connection_not_found'];

function describeError(error: Error, t: TFunction): string {
  if (error instanceof ApiError && KNOWN_ERRORS.includes(error.code)) return t(`errors.${error.code}`);
  return t('errors.other', { message: error.message });
}

export default function Connections() {
  const { t, i18n } = useTranslation(CONNECTIONS);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const list = useConnections();
  const action = useConnectionAction();
  const [revoking, setRevoking] = useState<string | null>(null);
  const run = (kind: ConnectionAction, provider: string) => action.mutate({ action: kind, provider });

  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      {list.isPending && <Loading />}
      {list.isError && (
        <Alert color="red" role="alert">
          {describeError(list.error, t)}
        </Alert>
      )}
      {action.isError && (
        <Alert color="red" role="alert">
          {describeError(action.error, t)}
        </Alert>
      )}
      {list.data?.connections.length === 0 && (
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Text fw={600}>{t('empty.title')}</Text>
            <Text>{t('empty.body')}</Text>
          </Stack>
        </Paper>
      )}
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {list.data?.connections.map((connection) => {
          const name = connection.provider_name;
          const busy = action.isPending && action.variables.provider === name;
          return (
            <Paper key={name} withBorder p="md" component="li">
              <Stack gap="xs">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Title order={3} size="h4" dir="ltr" style={{ wordBreak: 'break-all' }}>
                    {name}
                  </Title>
                  <Badge {...(connection.status === 'approved' ? {} : { variant: 'outline', color: 'gray' })}>
                    {t(`status.${connection.status ?? 'revoked'}`)}
                  </Badge>
                </Group>
                {connection.provider_url && (
                  <Anchor href={connection.provider_url} target="_blank" rel="noreferrer" dir="ltr" size="sm">
                    {connection.provider_url}
                  </Anchor>
                )}
                <Text size="sm">{t(connection.status === 'approved' ? 'approvedHint' : 'pendingHint')}</Text>
                {connection.status_changed_at && (
                  <Text size="sm" c="dimmed">
                    {t(connection.status === 'approved' ? 'approvedAt' : 'askedAt', {
                      date: dates.format(new Date(connection.status_changed_at)),
                    })}
                  </Text>
                )}
                <Group gap="xs">
                  {connection.status === 'pending' ? (
                    <>
                      <Button
                        loading={busy}
                        onClick={() => run('approve', name)}
                        aria-label={t('approveName', { name })}
                      >
                        {t('approve')}
                      </Button>
                      <Button
                        variant="default"
                        disabled={busy}
                        onClick={() => run('reject', name)}
                        aria-label={t('rejectName', { name })}
                      >
                        {t('reject')}
                      </Button>
                    </>
                  ) : (
                    <Button
                      variant="default"
                      loading={busy}
                      onClick={() => setRevoking(name)}
                      aria-label={t('revokeName', { name })}
                    >
                      {t('revoke')}
                    </Button>
                  )}
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </Stack>
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('confirm.title', { name: revoking ?? '' })}
        closeButtonProps={{ 'aria-label': t('confirm.cancel') }}
      >
        <Stack>
          <Text>{t('confirm.body')}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('confirm.cancel')}
            </Button>
            <Button
              color="red.9"
              onClick={() => {
                if (revoking) run('revoke', revoking);
                setRevoking(null);
              }}
            >
              {t('confirm.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
