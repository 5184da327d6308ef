// Bans in force (the admin's and the automatic ones, with when each ends), a form to ban an address or range for a
// while, and lifting a ban after a confirmation.
import { useState } from 'react';
import { Badge, NumberInput, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AddressForm } from './AddressForm';
import { AddressSection } from './AddressSection';
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
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  // Time left as of the listing, which is what the server answered; a refresh or a change reads it again.
  const now = bans.dataUpdatedAt;

  return (
    <AddressSection
      section="bans"
      verb="lift"
      list={bans}
      remove={remove}
      form={<BanForm />}
      badge={(ban) => (
        <Badge color={ban.reason === 'rate_limit' ? 'red.9' : 'gray.7'}>
          {t(ban.reason === 'rate_limit' ? 'bans.automatic' : 'bans.manual')}
        </Badge>
      )}
      details={(ban) => (
        <>
          <Text size="sm">
            {t('bans.until', {
              time: dates.format(new Date(ban.banned_until)),
              left: timeLeft(ban.banned_until, now, i18n.language),
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('bans.since', { time: dates.format(new Date(ban.banned_at)) })}
          </Text>
        </>
      )}
    />
  );
}

function BanForm() {
  const { t } = useTranslation(ADMIN_BANS);
  const add = useAddBan();
  const [ip, setIp] = useState('');
  const [amount, setAmount] = useState<number | string>('');
  const [unit, setUnit] = useState<Unit>('hours');
  const [problems, setProblems] = useState<{ ip?: string; duration?: string }>({});

  function submit() {
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
    <AddressForm label={t('bans.add')} ip={ip} onIp={setIp} ipProblem={problems.ip} add={add} onSubmit={submit}>
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
    </AddressForm>
  );
}
