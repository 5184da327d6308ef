// The admin providers screen: every provider (bots, resellers) with its owner; create one, disable, delete, re-token.
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import { Loading } from '../../../shell/Layout';
import { describeAdminError } from '../../errors';
import { ShownOnce } from '../../ShownOnce';
import { useConfirm } from '../../useConfirm';
import { ADMIN_PROVIDERS } from './strings';
import { CreateProvider } from './CreateProvider';
import { useDeleteProvider, useProviders, useRefreshProviderToken, useSetProviderActive } from './queries';

const KNOWN = ['provider_not_found'] as const;

interface Target {
  hash: string;
  name: string;
}

export default function Providers() {
  const { t, i18n } = useTranslation(ADMIN_PROVIDERS);
  const { id } = useNumbers();
  const providers = useProviders();
  const setActive = useSetProviderActive();
  const remove = useDeleteProvider();
  const refresh = useRefreshProviderToken();
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  const failed = [setActive, remove, refresh].find((m) => m.isError)?.error;
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const confirm = useConfirm(
    ({ kind, name }: Target & { kind: 'delete' | 'token' }) => ({
      title: t(`confirm.${kind}Title`, { name }),
      body: t(`confirm.${kind}Body`),
      confirm: t(`confirm.${kind}`),
      cancel: t('confirm.cancel'),
    }),
    ({ kind, hash, name }) => {
      if (kind === 'delete') remove.mutate(hash);
      else refresh.mutate(hash, { onSuccess: (answer) => setSecret({ name, token: answer.api_token }) });
    },
  );

  return (
    <Stack>
      <Title order={3}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      <CreateProvider onCreated={(name, token) => setSecret({ name, token })} />
      {secret && (
        <ShownOnce
          value={secret.token}
          onDone={() => setSecret(null)}
          labels={{
            title: t('shown.title', { name: secret.name }),
            warning: t('shown.warning'),
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
      {providers.isPending && <Loading />}
      {providers.isError && (
        <Alert color="red" role="alert">
          {describeAdminError(providers.error, t, KNOWN)}
        </Alert>
      )}
      {providers.data?.length === 0 && <Text>{t('list.empty')}</Text>}
      <Stack component="ul" gap="sm" className="admin-list">
        {providers.data?.map((provider) => {
          const target = { hash: provider.provider_hash, name: provider.provider_name };
          return (
            <Paper key={provider.provider_hash} withBorder p="md" component="li">
              <Stack gap="xs">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Title order={4} dir="ltr" className="admin-wrap">
                    {provider.provider_name}
                  </Title>
                  <Badge {...(provider.is_active ? {} : { variant: 'outline', color: 'gray' })}>
                    {t(provider.is_active ? 'list.active' : 'list.disabled')}
                  </Badge>
                </Group>
                {provider.provider_url && (
                  <Anchor
                    href={provider.provider_url}
                    target="_blank"
                    rel="noreferrer"
                    dir="ltr"
                    className="admin-wrap"
                  >
                    {provider.provider_url}
                  </Anchor>
                )}
                <Text size="sm">{t('list.owner', { id: id(provider.owner_id) })}</Text>
                <Text size="sm">{t('list.created', { time: dates.format(new Date(provider.created_at)) })}</Text>
                <Group gap="xs" wrap="wrap">
                  <Button
                    size="xs"
                    variant="default"
                    loading={setActive.isPending && setActive.variables.hash === provider.provider_hash}
                    onClick={() => setActive.mutate({ hash: provider.provider_hash, active: !provider.is_active })}
                  >
                    {t(provider.is_active ? 'actions.disable' : 'actions.enable')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => confirm.ask({ ...target, kind: 'token' })}>
                    {t('actions.token')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => confirm.ask({ ...target, kind: 'delete' })}>
                    {t('actions.delete')}
                  </Button>
                </Group>
              </Stack>
            </Paper>
          );
        })}
      </Stack>
      {confirm.dialog}
    </Stack>
  );
}
