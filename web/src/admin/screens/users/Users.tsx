// The admin users screen: find users by id and status, create one, and disable, delete, re-token or sign in each.
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Badge, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { latinDigits, useNumbers } from '../../../i18n/numbers';
import { Loading } from '../../../shell/Layout';
import { describeAdminError } from '../../errors';
import { ShownOnce } from '../../ShownOnce';
import { useConfirm } from '../../useConfirm';
import { ADMIN_USERS } from './strings';
import { CreateUser } from './CreateUser';
import { useDeleteUser, useRefreshUserToken, useSetActive, useSignInLink, useUsers, type UserFilter } from './queries';

const KNOWN = ['user_not_found', 'account_disabled'] as const;

interface Secret {
  kind: 'token' | 'link';
  userId: number;
  value: string;
}

export default function Users() {
  const { t, i18n } = useTranslation(ADMIN_USERS);
  const { number, id } = useNumbers();
  const [secret, setSecret] = useState<Secret | null>(null);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<UserFilter['status']>('all');
  // Persian or Arabic-Indic digits are taken as the id they spell.
  const typed = latinDigits(search.trim());
  const [debounced] = useDebouncedValue(typed, 300);
  const users = useUsers({ search: /^\d+$/.test(debounced) ? debounced : '', status });
  const setActive = useSetActive();
  const remove = useDeleteUser();
  const refresh = useRefreshUserToken();
  const link = useSignInLink();
  const failed = [setActive, remove, refresh, link].find((m) => m.isError)?.error;

  function show(kind: Secret['kind'], userId: number, value: string) {
    setSecret({ kind, userId, value });
  }

  const confirm = useConfirm(
    ({ kind, userId }: { kind: 'delete' | 'token'; userId: number }) => ({
      title: t(`confirm.${kind}Title`, { id: id(userId) }),
      body: t(`confirm.${kind}Body`),
      confirm: t(`confirm.${kind}`),
      cancel: t('confirm.cancel'),
    }),
    ({ kind, userId }) => {
      if (kind === 'delete') remove.mutate(userId);
      else refresh.mutate(userId, { onSuccess: (answer) => show('token', userId, answer.api_token) });
    },
  );

  const list = users.data?.pages.flatMap((page) => page.users) ?? [];
  const dates = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  return (
    <Stack>
      <Title order={3}>{t('title')}</Title>
      <CreateUser onCreated={(userId, token) => show('token', userId, token)} />
      {secret && (
        <ShownOnce
          value={secret.value}
          onDone={() => setSecret(null)}
          labels={{
            title: t(`shown.${secret.kind}Title`, { id: id(secret.userId) }),
            warning: t(`shown.${secret.kind}Warning`),
            copy: t('shown.copy'),
            copied: t('shown.copied'),
            done: t('shown.done'),
          }}
        />
      )}
      {failed && (
        <Alert color="red" role="alert">
          {describeAdminError(failed, t, KNOWN)}
        </Alert>
      )}
      <Group align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label={t('filter.search')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          inputMode="numeric"
          dir="ltr"
          error={typed && !/^\d{1,16}$/.test(typed) ? t('filter.digits') : null}
        />
        <NativeSelect
          label={t('filter.status')}
          value={status}
          onChange={(event) => setStatus(event.currentTarget.value as UserFilter['status'])}
          data={(['all', 'active', 'disabled'] as const).map((value) => ({ value, label: t(`filter.${value}`) }))}
        />
      </Group>
      {users.isPending && <Loading />}
      {users.isError && (
        <Alert color="red" role="alert">
          {describeAdminError(users.error, t, KNOWN)}
        </Alert>
      )}
      {users.isSuccess && list.length === 0 && <Text>{t('list.empty')}</Text>}
      <Stack component="ul" gap="sm" className="admin-list">
        {list.map((user) => (
          <Paper key={user.user_id} withBorder p="md" component="li">
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Title order={4}>{t('list.user', { id: id(user.user_id) })}</Title>
                <Badge {...(user.is_active ? {} : { variant: 'outline', color: 'gray' })}>
                  {t(user.is_active ? 'list.active' : 'list.disabled')}
                </Badge>
              </Group>
              <Text size="sm">{t('list.created', { time: dates.format(new Date(user.created_at)) })}</Text>
              <Text size="sm">{t('list.subscriptions', { count: number(user.subscription_count) })}</Text>
              <Group gap="xs" wrap="wrap">
                <Button
                  size="xs"
                  variant="default"
                  loading={setActive.isPending && setActive.variables.userId === user.user_id}
                  onClick={() => setActive.mutate({ userId: user.user_id, active: !user.is_active })}
                >
                  {t(user.is_active ? 'actions.disable' : 'actions.enable')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  disabled={!user.is_active}
                  loading={link.isPending && link.variables === user.user_id}
                  onClick={() =>
                    link.mutate(user.user_id, { onSuccess: (answer) => show('link', user.user_id, answer.url) })
                  }
                >
                  {t('actions.link')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => confirm.ask({ kind: 'token', userId: user.user_id })}
                >
                  {t('actions.token')}
                </Button>
                <Button size="xs" variant="default" component={Link} to={`/admin/connections?user=${user.user_id}`}>
                  {t('actions.connections')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => confirm.ask({ kind: 'delete', userId: user.user_id })}
                >
                  {t('actions.delete')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
      {users.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={users.isFetchingNextPage}
          onClick={() => void users.fetchNextPage()}
        >
          {t('list.more')}
        </Button>
      )}
      {confirm.dialog}
    </Stack>
  );
}
