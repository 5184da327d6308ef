// The form that processes a provider's invite for a user, as if the user had opened the provider's connection link.
import { useState, type FormEvent } from 'react';
import { Alert, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import { describeAdminError } from '../../errors';
import { ADMIN_CONNECTIONS } from './strings';
import { useAuthorize } from './queries';
import { KNOWN, userIdOf } from './user-id';

export function AuthorizeInvite({ defaultUser }: { defaultUser: number | null }) {
  const { t } = useTranslation(ADMIN_CONNECTIONS);
  const { id } = useNumbers();
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
              id: id(authorize.data.user_id),
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
