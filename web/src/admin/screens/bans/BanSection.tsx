// Bans in force (the admin's and the automatic ones, with when each ends), a form to ban an address or range, and
// lifting a ban after a confirmation.
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Group, NumberInput, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../shell/Layout';
import { Examples } from '../../Examples';
import { ConfirmRemove } from './ConfirmRemove';
import { ADDRESS_SAMPLES, fieldError, formError } from './errors';
import { useAddBan, useBans, useRemoveBan } from './queries';
import { ADMIN_BANS } from './strings';
import { timeLeft } from './time';

const UNIT_SECONDS = { minutes: 60, hours: 3_600, days: 86_400 } as const;
type Unit = keyof typeof UNIT_SECONDS;
const MAX_SECONDS = 31_536_000;

export function BanSection() {
  const { t, i18n } = useTranslation(ADMIN_BANS);
  const bans = useBans();
  const remove = useRemoveBan();
  const [lifting, setLifting] = useState<string | null>(null);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  // Time left as of the listing, which is what the server answered; a refresh or a change reads it again.
  const now = bans.dataUpdatedAt;

  return (
    <Stack component="section" aria-labelledby="admin-bans-title">
      <Title order={4} id="admin-bans-title">
        {t('bans.title')}
      </Title>
      <Text size="sm">{t('bans.intro')}</Text>
      <BanForm />
      {bans.isPending && <Loading />}
      {bans.isError && (
        <Alert color="red" role="alert">
          {t('errors.load', { message: bans.error.message })}
        </Alert>
      )}
      {remove.isError && (
        <Alert color="red" role="alert">
          {t('errors.other', { message: remove.error.message })}
        </Alert>
      )}
      {bans.data?.entries.length === 0 && <Text>{t('bans.empty')}</Text>}
      <Stack component="ul" gap="xs" p={0} m={0} className="admin-plain-list" aria-label={t('bans.title')}>
        {bans.data?.entries.map((ban) => (
          <Paper key={ban.ip_address} withBorder p="sm" component="li">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} dir="ltr" className="admin-address">
                    {ban.ip_address}
                  </Text>
                  <Badge color={ban.reason === 'rate_limit' ? 'red.9' : 'gray.7'}>
                    {t(ban.reason === 'rate_limit' ? 'bans.automatic' : 'bans.manual')}
                  </Badge>
                </Group>
                <Text size="sm">
                  {t('bans.until', {
                    time: dates.format(new Date(ban.banned_until)),
                    left: timeLeft(ban.banned_until, now, i18n.language),
                  })}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('bans.since', { time: dates.format(new Date(ban.banned_at)) })}
                </Text>
              </Stack>
              <Button
                variant="default"
                size="xs"
                loading={remove.isPending && remove.variables === ban.ip_address}
                onClick={() => setLifting(ban.ip_address)}
                aria-label={t('bans.liftNamed', { ip: ban.ip_address })}
              >
                {t('bans.lift')}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
      <ConfirmRemove
        opened={lifting !== null}
        title={t('bans.confirmTitle', { ip: lifting ?? '' })}
        body={t('bans.confirmBody')}
        confirm={t('bans.lift')}
        cancel={t('cancel')}
        onConfirm={() => lifting && remove.mutate(lifting)}
        onClose={() => setLifting(null)}
      />
    </Stack>
  );
}

function BanForm() {
  const { t } = useTranslation(ADMIN_BANS);
  const add = useAddBan();
  const [ip, setIp] = useState('');
  const [amount, setAmount] = useState<number | string>('');
  const [unit, setUnit] = useState<Unit>('hours');
  const [problems, setProblems] = useState<{ ip?: string; duration?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!ip.trim()) found.ip = t('errors.addressRequired');
    const seconds = amount === '' ? undefined : Number(amount) * UNIT_SECONDS[unit];
    if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS)) {
      found.duration = t('errors.badDuration');
    }
    setProblems(found);
    if (found.ip || found.duration) return;
    add.mutate(
      { ip_address: ip.trim(), ...(seconds === undefined ? {} : { duration_seconds: seconds }) },
      {
        onSuccess: () => {
          setIp('');
          setAmount('');
        },
      },
    );
  }

  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} noValidate aria-label={t('bans.add')}>
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
          <NumberInput
            label={t('bans.duration')}
            description={t('bans.durationHint')}
            value={amount}
            onChange={setAmount}
            error={problems.duration}
            min={1}
            clampBehavior="none"
            allowDecimal={false}
            w={150}
          />
          <Select
            label={t('bans.unit')}
            value={unit}
            onChange={(value) => value && setUnit(value as Unit)}
            data={(Object.keys(UNIT_SECONDS) as Unit[]).map((value) => ({ value, label: t(`bans.units.${value}`) }))}
            allowDeselect={false}
            w={130}
          />
        </Group>
        {formError(add.error, t) && (
          <Alert color="red" role="alert">
            {formError(add.error, t)}
          </Alert>
        )}
        <Button type="submit" loading={add.isPending} w="fit-content">
          {t('bans.add')}
        </Button>
      </Stack>
    </Paper>
  );
}
