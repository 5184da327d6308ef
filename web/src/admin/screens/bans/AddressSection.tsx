// What the bans and the whitelist share: a titled list of addresses with a form to add one and a removal that asks
// first; each passes its catalog section, its queries, its form and what its entries show besides the address.
import type { ReactNode } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../shell/Layout';
import { useConfirm } from '../../useConfirm';
import { ADMIN_BANS } from './strings';

interface Props<Entry extends { ip_address: string }> {
  /** The catalog's section (`bans.title`, `whitelist.empty`, ...), also naming the heading's id. */
  section: 'bans' | 'whitelist';
  /** The removal's verb in that section: its button, its `…Named` label and the confirmation's button. */
  verb: 'lift' | 'remove';
  list: UseQueryResult<{ entries: Entry[] }>;
  remove: UseMutationResult<unknown, Error, string>;
  form: ReactNode;
  /** What an entry shows under its address. */
  details: (entry: Entry) => ReactNode;
  /** What an entry shows beside its address (a badge). */
  badge?: (entry: Entry) => ReactNode;
}

export function AddressSection<Entry extends { ip_address: string }>(props: Props<Entry>) {
  const { section, verb, list, remove, form, details, badge } = props;
  const { t } = useTranslation(ADMIN_BANS);
  const titleId = `admin-${section}-title`;
  const confirm = useConfirm(
    (ip: string) => ({
      title: t(`${section}.confirmTitle`, { ip }),
      body: t(`${section}.confirmBody`),
      confirm: t(`${section}.${verb}`),
      cancel: t('cancel'),
    }),
    (ip) => remove.mutate(ip),
  );

  return (
    <Stack component="section" aria-labelledby={titleId}>
      <Title order={4} id={titleId}>
        {t(`${section}.title`)}
      </Title>
      <Text size="sm">{t(`${section}.intro`)}</Text>
      {form}
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
      {list.data?.entries.length === 0 && <Text>{t(`${section}.empty`)}</Text>}
      <Stack component="ul" gap="xs" p={0} m={0} className="admin-plain-list" aria-label={t(`${section}.title`)}>
        {list.data?.entries.map((entry) => (
          <Paper key={entry.ip_address} withBorder p="sm" component="li">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} dir="ltr" className="admin-address">
                    {entry.ip_address}
                  </Text>
                  {badge?.(entry)}
                </Group>
                {details(entry)}
              </Stack>
              <Button
                variant="default"
                size="xs"
                loading={remove.isPending && remove.variables === entry.ip_address}
                onClick={() => confirm.ask(entry.ip_address)}
                aria-label={t(`${section}.${verb}Named`, { ip: entry.ip_address })}
              >
                {t(`${section}.${verb}`)}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
      {confirm.dialog}
    </Stack>
  );
}
