// The admin connections screen: one user's provider connections (approve or reject a request) and a provider's invite.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import { Loading } from '../../../shell/Layout';
import { describeAdminError } from '../../errors';
import { ADMIN_CONNECTIONS } from './strings';
import { useDecide, useUserConnections } from './queries';
import { AuthorizeInvite } from './AuthorizeInvite';
import { KNOWN, userIdOf } from './user-id';

export default function Connections() {
  const { t } = useTranslation(ADMIN_CONNECTIONS);
  const { id } = useNumbers();
  const [params, setParams] = useSearchParams();
  const userId = userIdOf(params.get('user'));
  const [draft, setDraft] = useState(params.get('user') ?? '');
  const [invalid, setInvalid] = useState(false);
  const connections = useUserConnections(userId);
  const decide = useDecide();

  function choose(event: FormEvent) {
    event.preventDefault();
    const chosen = userIdOf(draft.trim());
    setInvalid(chosen === null);
    if (chosen !== null) setParams({ user: String(chosen) });
  }

  return (
    <Stack>
      <Title order={3}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      <Paper withBorder p="md" component="form" onSubmit={choose} noValidate>
        <Stack gap="xs">
          <TextInput
            label={t('user.label')}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            inputMode="numeric"
            dir="ltr"
            error={invalid ? t('user.invalid') : null}
          />
          <Button type="submit" w="fit-content">
            {t('user.show')}
          </Button>
        </Stack>
      </Paper>
      {userId !== null && <Title order={4}>{t('list.title', { id: id(userId) })}</Title>}
      {connections.isLoading && <Loading />}
      {connections.isError && (
        <Alert color="red" role="alert">
          {describeAdminError(connections.error, t, KNOWN)}
        </Alert>
      )}
      {decide.isError && (
        <Alert color="red" role="alert">
          {describeAdminError(decide.error, t, KNOWN)}
        </Alert>
      )}
      {connections.data?.connections.length === 0 && <Text>{t('list.empty')}</Text>}
      <Stack component="ul" gap="sm" className="admin-list">
        {userId !== null &&
          connections.data?.connections.map((connection) => {
            const name = connection.provider_name;
            const busy = decide.isPending && decide.variables.provider === name;
            return (
              <Paper key={name} withBorder p="md" component="li">
                <Stack gap="xs">
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Text fw={600} dir="ltr" className="admin-wrap">
                      {name}
                    </Text>
                    <Badge {...(connection.status === 'approved' ? {} : { variant: 'outline', color: 'gray' })}>
                      {t(`status.${connection.status ?? 'revoked'}`)}
                    </Badge>
                  </Group>
                  {connection.provider_url && (
                    <Anchor
                      href={connection.provider_url}
                      target="_blank"
                      rel="noreferrer"
                      dir="ltr"
                      className="admin-wrap"
                    >
                      {connection.provider_url}
                    </Anchor>
                  )}
                  {connection.status === 'pending' && (
                    <Group gap="xs">
                      <Button
                        size="xs"
                        loading={busy && decide.variables.decision === 'approve'}
                        disabled={busy}
                        onClick={() => decide.mutate({ userId, provider: name, decision: 'approve' })}
                      >
                        {t('actions.approve')}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        loading={busy && decide.variables.decision === 'reject'}
                        disabled={busy}
                        onClick={() => decide.mutate({ userId, provider: name, decision: 'reject' })}
                      >
                        {t('actions.reject')}
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Paper>
            );
          })}
      </Stack>
      <AuthorizeInvite defaultUser={userId} />
    </Stack>
  );
}
