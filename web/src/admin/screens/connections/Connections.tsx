// The admin connections screen: one user's provider connections (approve or reject a request) and a provider's invite.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../shell/Layout';
import { describeAdminError } from '../../errors';
import { ADMIN_CONNECTIONS } from './strings';
import { useAuthorize, useDecide, useUserConnections } from './queries';

const KNOWN = [
  'user_not_found',
  'provider_not_found',
  'connection_not_found',
  'connection_not_pending',
  'provider_limit_reached',
  'invalid_invite',
  'validation_failed',
] as const;

const userIdOf = (raw: string | null): number | null =>
  raw && /^[1-9]\d{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null;

export default function Connections() {
  const { t } = useTranslation(ADMIN_CONNECTIONS);
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
      {userId !== null && <Title order={4}>{t('list.title', { id: userId })}</Title>}
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

/** A provider gives the admin an invite (the `{invite}` of its connection link) to open a request for a user. */
function AuthorizeInvite({ defaultUser }: { defaultUser: number | null }) {
  const { t } = useTranslation(ADMIN_CONNECTIONS);
  const authorize = useAuthorize();
  const [user, setUser] = useState(defaultUser === null ? '' : String(defaultUser));
  const [provider, setProvider] = useState('');
  const [invite, setInvite] = useState('');
  const [checked, setChecked] = useState(false);
  const userId = userIdOf(user.trim());

  function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (userId === null || !provider.trim() || !invite.trim()) return;
    authorize.mutate({ userId, provider: provider.trim(), invite: invite.trim() });
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Title order={4}>{t('authorize.title')}</Title>
        <Text size="sm">{t('authorize.body')}</Text>
        <TextInput
          label={t('authorize.user')}
          value={user}
          onChange={(event) => setUser(event.currentTarget.value)}
          inputMode="numeric"
          dir="ltr"
          error={checked && userId === null ? t('user.invalid') : null}
        />
        <TextInput
          label={t('authorize.provider')}
          value={provider}
          onChange={(event) => setProvider(event.currentTarget.value)}
          dir="ltr"
          error={checked && !provider.trim() ? t('authorize.required') : null}
        />
        <TextInput
          label={t('authorize.invite')}
          value={invite}
          onChange={(event) => setInvite(event.currentTarget.value)}
          dir="ltr"
          autoComplete="off"
          error={checked && !invite.trim() ? t('authorize.required') : null}
        />
        {authorize.isError && (
          <Alert color="red" role="alert">
            {describeAdminError(authorize.error, t, KNOWN)}
          </Alert>
        )}
        {authorize.isSuccess && (
          <Alert color="teal" role="status">
            {t('authorize.done', {
              provider: authorize.data.provider_name,
              id: authorize.data.user_id,
              status: t(`status.${authorize.data.status}`),
            })}
          </Alert>
        )}
        <Button type="submit" w="fit-content" loading={authorize.isPending}>
          {t('authorize.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
