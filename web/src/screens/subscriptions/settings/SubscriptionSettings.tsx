// A subscription's name, description and link settings in one form that sends only what changed (PATCH), with the
// API's validation errors at their fields; and deleting the subscription.
import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { URI_SNIPPETS } from '../../../i18n/bidi';
import type { Subscription } from '../queries';
import { SUBSCRIPTIONS } from '../strings';
import { describeError } from '../errors';
import { SUBSCRIPTION_SETTINGS } from './strings';
import { fieldErrors, formOf, notNumbers, patchBody, type SettingsForm, type UsageMode } from './form';
import { useUpdateSubscription } from './queries';
import { DeleteSubscription } from './DeleteSubscription';

const MODES: UsageMode[] = ['none', 'first', 'sum', 'fixed'];

export function SubscriptionSettings({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation(SUBSCRIPTION_SETTINGS);
  const { t: ts } = useTranslation(SUBSCRIPTIONS);
  const [form, setForm] = useState(() => formOf(subscription));
  // What the status line says after Save, until the next edit.
  const [status, setStatus] = useState<'saved' | 'unchanged' | null>(null);
  const [unreadable, setUnreadable] = useState<(keyof SettingsForm)[]>([]);
  const update = useUpdateSubscription(subscription.token);
  const errors = {
    ...fieldErrors(update.error, ts('errors.name_exists'), t('refused')),
    ...Object.fromEntries(unreadable.map((name) => [name, t('notANumber')])),
  } as Partial<Record<keyof SettingsForm, string>>;
  const unplaced = update.isError && Object.keys(fieldErrors(update.error, '', '')).length === 0;

  const field = (name: keyof SettingsForm) => ({
    value: form[name],
    error: errors[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setForm((current) => ({ ...current, [name]: value }));
      setStatus(null);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = notNumbers(form);
    setUnreadable(wrong);
    if (wrong.length > 0) return update.reset();
    const body = patchBody(subscription, form);
    if (Object.keys(body).length === 0) {
      update.reset();
      return setStatus('unchanged');
    }
    update.mutate(body, {
      onSuccess: (updated) => {
        setForm(formOf(updated));
        setStatus('saved');
      },
    });
  };

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4" id="settings-title">
          {t('title')}
        </Title>
        <form onSubmit={onSubmit} noValidate aria-labelledby="settings-title">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('name')} description={t('nameHint')} maxLength={64} required {...field('name')} />
              <TextInput
                label={t('description')}
                description={t('descriptionHint')}
                maxLength={64}
                {...field('description')}
              />
              <TextInput
                label={t('interval')}
                description={t('intervalHint')}
                inputMode="numeric"
                {...field('updateIntervalHours')}
              />
              <TextInput
                label={t('supportUrl')}
                description={t('urlHint', URI_SNIPPETS)}
                dir="ltr"
                inputMode="url"
                spellCheck={false}
                {...field('supportUrl')}
              />
              <TextInput
                label={t('webPageUrl')}
                description={t('urlHint', URI_SNIPPETS)}
                dir="ltr"
                inputMode="url"
                spellCheck={false}
                {...field('webPageUrl')}
              />
            </SimpleGrid>
            <Textarea
              label={t('announce')}
              description={t('announceHint')}
              autosize
              minRows={2}
              {...field('announce')}
            />
            <NativeSelect
              label={t('usage.label')}
              description={t(`usage.hints.${form.mode}`)}
              data={MODES.map((mode) => ({ value: mode, label: t(`usage.modes.${mode}`) }))}
              {...field('mode')}
            />
            {form.mode === 'fixed' && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={t('usage.upload')} inputMode="decimal" {...field('uploadGb')} />
                <TextInput label={t('usage.download')} inputMode="decimal" {...field('downloadGb')} />
                <TextInput
                  label={t('usage.total')}
                  description={t('usage.totalHint')}
                  inputMode="decimal"
                  {...field('totalGb')}
                />
                <TextInput
                  type="date"
                  label={t('usage.expire')}
                  description={t('usage.expireHint')}
                  dir="ltr"
                  {...field('expire')}
                />
              </SimpleGrid>
            )}
            {unplaced && (
              <Alert color="red" role="alert">
                {describeError(update.error, ts)}
              </Alert>
            )}
            <Group gap="sm">
              <Button type="submit" loading={update.isPending}>
                {t('save')}
              </Button>
              <Text size="sm" role="status">
                {status && t(status)}
              </Text>
            </Group>
          </Stack>
        </form>
        <DeleteSubscription subscription={subscription} />
      </Stack>
    </Paper>
  );
}
