// The door to the admin console: asks for ADMIN_SECRET, checks it with one signed call, and keeps it in this tab only.
import { useState, type FormEvent } from 'react';
import { Outlet } from 'react-router';
import { Alert, Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { URI_SNIPPETS } from '../i18n/bidi';
import { ApiError, unwrap } from '../api/client';
import { ADMIN } from './strings';
import { adminApi } from './api';
import { canSign } from './signing';
import { readAdminSecret, storeAdminSecret, useAdminSecret } from './secret';
import './admin.css';

export default function AdminGate() {
  const secret = useAdminSecret();
  if (!canSign()) return <InsecureContext />;
  return secret ? <Outlet /> : <SecretForm />;
}

function InsecureContext() {
  const { t } = useTranslation(ADMIN);
  return (
    <Alert color="red" title={t('gate.insecureTitle')} role="alert">
      {t('gate.insecureBody', URI_SNIPPETS)}
    </Alert>
  );
}

/** The error codes a wrong secret or a refused caller can get, each with its own explanation in the catalog. */
const KNOWN = ['invalid_signature', 'ip_not_allowed', 'admin_disabled', 'signature_expired'] as const;

function SecretForm() {
  const { t } = useTranslation(ADMIN);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const candidate = value.trim();
    if (!candidate) return setProblem(t('gate.required'));
    setChecking(true);
    setProblem(null);
    storeAdminSecret(candidate);
    try {
      // The console's first screen reads statistics anyway; a wrong secret fails here before anything is shown.
      await unwrap(adminApi.GET('/api/v1/admin/stats', {}));
    } catch (error) {
      if (readAdminSecret() === candidate) storeAdminSecret(null);
      const code = error instanceof ApiError ? error.code : '';
      setProblem(
        (KNOWN as readonly string[]).includes(code)
          ? t(`gate.errors.${code}`)
          : t('gate.errors.other', { message: error instanceof Error ? error.message : String(error) }),
      );
    } finally {
      setChecking(false);
    }
  }

  return (
    <Paper withBorder p="lg" maw={480} mx="auto" component="form" onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        <Title order={2}>{t('gate.title')}</Title>
        <Text size="sm">{t('gate.body')}</Text>
        <PasswordInput
          label={t('gate.secret')}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          autoComplete="off"
          dir="ltr"
          error={problem}
          data-autofocus
        />
        <Button type="submit" loading={checking} w="fit-content">
          {t('gate.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
