// The whitelist: addresses and ranges exempt from bans and rate limits, with why; add one, remove one after a confirmation.
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../shell/Layout';
import { Examples } from '../../Examples';
import { ConfirmRemove } from './ConfirmRemove';
import { ADDRESS_SAMPLES, fieldError, formError } from './errors';
import { useAddWhitelist, useRemoveWhitelist, useWhitelist } from './queries';
import { ADMIN_BANS } from './strings';

const MAX_DESCRIPTION = 256;

export function WhitelistSection() {
  const { t, i18n } = useTranslation(ADMIN_BANS);
  const list = useWhitelist();
  const remove = useRemoveWhitelist();
  const [removing, setRemoving] = useState<string | null>(null);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <Stack component="section" aria-labelledby="admin-whitelist-title">
      <Title order={4} id="admin-whitelist-title">
        {t('whitelist.title')}
      </Title>
      <Text size="sm">{t('whitelist.intro')}</Text>
      <WhitelistForm />
      {list.isPending && <Loading />}
      {list.isError && (
        <Alert color="red" role="alert">
          {t('errors.load', { message: list.error.message })}
        </Alert>
      )}
      {remove.isError && (
        <Alert color="red" role="alert">
          {t('errors.other', { message: remove.error.message })}
        </Alert>
      )}
      {list.data?.entries.length === 0 && <Text>{t('whitelist.empty')}</Text>}
      <Stack component="ul" gap="xs" p={0} m={0} className="admin-plain-list" aria-label={t('whitelist.title')}>
        {list.data?.entries.map((entry) => (
          <Paper key={entry.ip_address} withBorder p="sm" component="li">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text fw={600} dir="ltr" className="admin-address">
                  {entry.ip_address}
                </Text>
                {entry.description && (
                  <Text size="sm" className="admin-address">
                    {entry.description}
                  </Text>
                )}
                <Text size="sm" c="dimmed">
                  {t('whitelist.added', { time: dates.format(new Date(entry.added_at)) })}
                </Text>
              </Stack>
              <Button
                variant="default"
                size="xs"
                loading={remove.isPending && remove.variables === entry.ip_address}
                onClick={() => setRemoving(entry.ip_address)}
                aria-label={t('whitelist.removeNamed', { ip: entry.ip_address })}
              >
                {t('whitelist.remove')}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
      <ConfirmRemove
        opened={removing !== null}
        title={t('whitelist.confirmTitle', { ip: removing ?? '' })}
        body={t('whitelist.confirmBody')}
        confirm={t('whitelist.remove')}
        cancel={t('cancel')}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}

function WhitelistForm() {
  const { t } = useTranslation(ADMIN_BANS);
  const add = useAddWhitelist();
  const [ip, setIp] = useState('');
  const [description, setDescription] = useState('');
  const [problems, setProblems] = useState<{ ip?: string; description?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!ip.trim()) found.ip = t('errors.addressRequired');
    if (description.length > MAX_DESCRIPTION) found.description = t('errors.longDescription');
    setProblems(found);
    if (found.ip || found.description) return;
    const body = { ip_address: ip.trim(), ...(description.trim() ? { description: description.trim() } : {}) };
    add.mutate(body, {
      onSuccess: () => {
        setIp('');
        setDescription('');
      },
    });
  }

  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} noValidate aria-label={t('whitelist.add')}>
      <Stack gap="xs">
        <Group align="flex-start" wrap="wrap" gap="xs">
          <TextInput
            label={t('address')}
            description={<Examples lead={t('examples')} samples={ADDRESS_SAMPLES} />}
            value={ip}
            onChange={(event) => setIp(event.currentTarget.value)}
            error={problems.ip ?? fieldError(add.error, t)}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            miw={200}
          />
          <TextInput
            label={t('whitelist.description')}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={problems.description}
            miw={200}
            flex={1}
          />
        </Group>
        {formError(add.error, t) && (
          <Alert color="red" role="alert">
            {formError(add.error, t)}
          </Alert>
        )}
        <Button type="submit" loading={add.isPending} w="fit-content">
          {t('whitelist.add')}
        </Button>
      </Stack>
    </Paper>
  );
}
