// The whitelist: addresses and ranges exempt from bans and rate limits, with why; add one, remove one after a confirmation.
import { useState } from 'react';
import { Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AddressForm } from './AddressForm';
import { AddressSection } from './AddressSection';
import { useAddWhitelist, useRemoveWhitelist, useWhitelist } from './queries';
import { ADMIN_BANS } from './strings';

const MAX_DESCRIPTION = 256;

export function WhitelistSection() {
  const { t, i18n } = useTranslation(ADMIN_BANS);
  const list = useWhitelist();
  const remove = useRemoveWhitelist();
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <AddressSection
      section="whitelist"
      verb="remove"
      list={list}
      remove={remove}
      form={<WhitelistForm />}
      details={(entry) => (
        <>
          {entry.description && (
            <Text size="sm" className="admin-address">
              {entry.description}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {t('whitelist.added', { time: dates.format(new Date(entry.added_at)) })}
          </Text>
        </>
      )}
    />
  );
}

function WhitelistForm() {
  const { t } = useTranslation(ADMIN_BANS);
  const add = useAddWhitelist();
  const [ip, setIp] = useState('');
  const [description, setDescription] = useState('');
  const [problems, setProblems] = useState<{ ip?: string; description?: string }>({});

  function submit() {
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
    <AddressForm label={t('whitelist.add')} ip={ip} onIp={setIp} ipProblem={problems.ip} add={add} onSubmit={submit}>
      <TextInput
        label={t('whitelist.description')}
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={problems.description}
        miw={200}
        flex={1}
      />
    </AddressForm>
  );
}
