// Sign-in screen: paste the API token, or arrive through a one-time link /app/sign-in#code=<code> (docs/dashboard.md).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { Alert, Anchor, Button, Loader, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';
import { useSignIn, type Credential } from '../../shell/session';
import { SIGN_IN } from './strings';

/** Takes the code out of the fragment and the fragment out of the address bar and history at once. */
function takeCodeFromFragment(): string | null {
  const code = new URLSearchParams(window.location.hash.slice(1)).get('code');
  if (code === null) return null;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return code;
}

export default function SignIn() {
  const { t } = useTranslation(SIGN_IN);
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = useSignIn();
  const [token, setToken] = useState('');
  const [empty, setEmpty] = useState(false);
  const started = useRef(false);
  // Which way the last attempt went decides how its failure is explained.
  const viaLink = signIn.variables !== undefined && 'code' in signIn.variables;

  const from = (location.state as { from?: string } | null)?.from;
  const submit = (credential: Credential) =>
    signIn.mutate(credential, {
      onSuccess: () => void navigate(from && from !== '/sign-in' ? from : '/subs', { replace: true }),
    });

  useEffect(() => {
    // The first screen is interactive from here on: bench/dashboard-first-screen.ts reads this mark.
    performance.mark('subweave:sign-in-ready');
    if (started.current) return;
    started.current = true;
    const code = takeCodeFromFragment();
    if (code === null) return;
    submit({ code });
    // Runs once, on arrival: the fragment is read a single time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = token.trim();
    setEmpty(value === '');
    if (value === '') return;
    submit({ token: value });
  };

  return (
    <Stack maw={480} mx="auto" mt="lg">
      <Title order={2}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      {viaLink && signIn.isPending && (
        <Text role="status">
          <Loader size="xs" me="xs" />
          {t('withLink')}
        </Text>
      )}
      {signIn.isError && (
        <Alert color="red" role="alert">
          {errorMessage(signIn.error, viaLink, t)}
        </Alert>
      )}
      <Paper withBorder p="md" component="form" onSubmit={onSubmit} noValidate>
        <Stack>
          <PasswordInput
            label={t('token')}
            description={t('tokenHint')}
            value={token}
            onChange={(event) => setToken(event.currentTarget.value)}
            error={empty ? t('errors.empty') : undefined}
            autoComplete="off"
            spellCheck={false}
            dir="ltr"
            data-autofocus
          />
          <Button type="submit" loading={signIn.isPending && !viaLink}>
            {t('submit')}
          </Button>
        </Stack>
      </Paper>
      {/* How an administrator who has no API token finds the console. */}
      <Anchor component={RouterLink} to="/admin" size="sm">
        {t('admin')}
      </Anchor>
    </Stack>
  );
}

function errorMessage(error: Error, viaLink: boolean, t: TFunction): string {
  if (error instanceof ApiError) {
    if (error.status === 403 && error.code === 'account_disabled') return t('errors.disabled');
    if (error.status === 401 || error.status === 400) return t(viaLink ? 'errors.badLink' : 'errors.badToken');
  }
  return t('errors.other', { message: error.message });
}
