// The form that creates a user; the new user's token goes to the screen, which shows it once.
import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeAdminError } from '../../errors';
import { ADMIN_USERS } from './strings';
import { useCreateUser } from './queries';

const USER_ID = /^[1-9]\d{0,15}$/;
const KNOWN = ['user_exists', 'validation_failed'] as const;

export function CreateUser({ onCreated }: { onCreated: (userId: number, token: string) => void }) {
  const { t } = useTranslation(ADMIN_USERS);
  const create = useCreateUser();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const raw = value.trim();
    if (!USER_ID.test(raw) || !Number.isSafeInteger(Number(raw))) return setInvalid(true);
    setInvalid(false);
    create.mutate(Number(raw), {
      onSuccess: (user) => {
        setValue('');
        onCreated(user.user_id, user.api_token);
      },
    });
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Title order={4}>{t('create.title')}</Title>
        <Group align="flex-start" wrap="wrap" gap="sm">
          <TextInput
            label={t('create.id')}
            description={t('create.hint')}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            inputMode="numeric"
            dir="ltr"
            error={invalid ? t('create.invalid') : create.isError ? describeAdminError(create.error, t, KNOWN) : null}
          />
        </Group>
        <Button type="submit" w="fit-content" loading={create.isPending}>
          {t('create.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
