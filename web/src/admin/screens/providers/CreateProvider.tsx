// The form that creates a provider for an owner's user id; the new token goes to the screen, which shows it once.
import { useState, type FormEvent } from 'react';
import { Alert, Button, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { URI_SNIPPETS } from '../../../i18n/bidi';
import { describeAdminError } from '../../errors';
import { ADMIN_PROVIDERS } from './strings';
import { useCreateProvider } from './queries';

const NAME = /^(?=.{4,16}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
const KNOWN = ['name_exists', 'provider_exists', 'user_not_found', 'validation_failed'] as const;

export function CreateProvider({ onCreated }: { onCreated: (name: string, token: string) => void }) {
  const { t } = useTranslation(ADMIN_PROVIDERS);
  const create = useCreateProvider();
  const [owner, setOwner] = useState('');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [checked, setChecked] = useState(false);
  const ownerValid = /^[1-9]\d{0,15}$/.test(owner.trim()) && Number.isSafeInteger(Number(owner.trim()));
  const nameValid = NAME.test(name.trim());
  const urlValid = url.trim() === '' || /^https?:\/\/\S+$/i.test(url.trim());

  function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (!ownerValid || !nameValid || !urlValid) return;
    create.mutate(
      { ownerId: Number(owner.trim()), name: name.trim(), url: url.trim() },
      {
        onSuccess: (provider) => {
          setOwner('');
          setName('');
          setUrl('');
          setChecked(false);
          onCreated(provider.provider_name, provider.api_token);
        },
      },
    );
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Title order={4}>{t('create.title')}</Title>
        <TextInput
          label={t('create.owner')}
          description={t('create.ownerHint')}
          value={owner}
          onChange={(event) => setOwner(event.currentTarget.value)}
          inputMode="numeric"
          dir="ltr"
          error={checked && !ownerValid ? t('create.ownerInvalid') : null}
        />
        <TextInput
          label={t('create.name')}
          description={t('create.nameHint')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          dir="ltr"
          error={checked && !nameValid ? t('create.nameInvalid') : null}
        />
        <TextInput
          label={t('create.url')}
          description={t('create.urlHint')}
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          dir="ltr"
          type="url"
          error={checked && !urlValid ? t('create.urlInvalid', URI_SNIPPETS) : null}
        />
        {create.isError && (
          <Alert color="red" role="alert">
            {describeAdminError(create.error, t, KNOWN)}
          </Alert>
        )}
        <Button type="submit" w="fit-content" loading={create.isPending}>
          {t('create.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
