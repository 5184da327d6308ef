// The admin console's branding screen: name, logo, accent colour and support link, with a live sample of how they look.
import { useState } from 'react';
import { Alert, Button, ColorInput, FileInput, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ADMIN } from '../../strings';
import { wantsDarkText } from '../../../shell/branding';
import { fieldIssues } from '../../field-issues';
import { BRANDING } from './strings';
import { useBrandingSettings, useSaveBranding, type BrandingBody } from './queries';

/** The API's limit on the decoded logo (docs/admin-api.md, Branding). */
const LOGO_MAX_BYTES = 64 * 1024;

interface Form {
  service_name: string;
  logo: string | null;
  accent_color: string;
  support_url: string;
}

export default function Branding() {
  const { t } = useTranslation(BRANDING);
  const admin = useTranslation(ADMIN).t;
  const branding = useBrandingSettings();
  return (
    <Stack>
      <Title order={3}>{admin('nav.branding')}</Title>
      <Text>{t('intro')}</Text>
      {branding.isError && <Alert color="red">{t('loadFailed', { message: branding.error.message })}</Alert>}
      {branding.data && (
        <BrandingForm
          initial={{
            service_name: branding.data.service_name ?? '',
            logo: branding.data.logo,
            accent_color: branding.data.accent_color ?? '',
            support_url: branding.data.support_url ?? '',
          }}
        />
      )}
    </Stack>
  );
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

function BrandingForm({ initial }: { initial: Form }) {
  const { t } = useTranslation(BRANDING);
  const save = useSaveBranding();
  const [form, setForm] = useState<Form>(initial);
  const [logoProblem, setLogoProblem] = useState<string | null>(null);
  const issues = fieldIssues(save.error);
  const set = (patch: Partial<Form>) => {
    save.reset();
    setForm((current) => ({ ...current, ...patch }));
  };

  const pickLogo = (file: File | null) => {
    setLogoProblem(null);
    if (!file) return;
    if (file.size > LOGO_MAX_BYTES) {
      setLogoProblem(t('logoTooLarge'));
      return;
    }
    readDataUrl(file).then(
      (logo) => set({ logo }),
      () => setLogoProblem(t('logoUnreadable')),
    );
  };

  const body: BrandingBody = {
    service_name: form.service_name.trim() || null,
    logo: form.logo,
    accent_color: form.accent_color.trim() || null,
    support_url: form.support_url.trim() || null,
  };
  const accent = /^#[0-9a-f]{6}$/i.test(form.accent_color) ? form.accent_color : null;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(body);
      }}
    >
      <Stack>
        <TextInput
          label={t('serviceName')}
          description={t('serviceNameHint')}
          value={form.service_name}
          maxLength={64}
          error={issues['service_name']}
          onChange={(e) => set({ service_name: e.currentTarget.value })}
        />
        <Stack gap={4}>
          <FileInput
            label={t('logo')}
            description={t('logoHint')}
            placeholder={t('logoPick')}
            accept="image/png,image/jpeg,image/webp,image/svg+xml"
            clearable={false}
            error={logoProblem ?? issues['logo']}
            onChange={pickLogo}
          />
          {form.logo && (
            <Button variant="default" size="xs" w="fit-content" onClick={() => set({ logo: null })}>
              {t('logoRemove')}
            </Button>
          )}
        </Stack>
        <ColorInput
          label={t('accent')}
          description={t('accentHint')}
          format="hex"
          withEyeDropper={false}
          dir="ltr"
          placeholder="#4263eb"
          value={form.accent_color}
          error={issues['accent_color']}
          onChange={(value) => set({ accent_color: value })}
        />
        <TextInput
          label={t('supportUrl')}
          description={t('supportUrlHint')}
          value={form.support_url}
          dir="ltr"
          type="url"
          placeholder="https://t.me/..."
          error={issues['support_url']}
          onChange={(e) => set({ support_url: e.currentTarget.value })}
        />
        <Paper withBorder p="md" component="section" aria-labelledby="branding-sample">
          <Stack gap="sm">
            <Text size="sm" c="dimmed" id="branding-sample">
              {t('sample')}
            </Text>
            <Group gap="xs" wrap="nowrap">
              {form.logo && <img className="brand-logo" src={form.logo} alt="" />}
              <Text fw={700} size="lg" className="brand-name">
                {form.service_name.trim() || 'subweave'}
              </Text>
            </Group>
            {/* A look, not a control: a span styled as a button, out of the tab order. */}
            <Button
              component="span"
              w="fit-content"
              styles={
                accent
                  ? { root: { background: accent, color: wantsDarkText(accent) ? '#141517' : '#ffffff' } }
                  : undefined
              }
            >
              {t('sampleButton')}
            </Button>
          </Stack>
        </Paper>
        {save.isError && (
          <Alert color="red" role="alert">
            {t('refused', { message: save.error.message })}
          </Alert>
        )}
        {save.isSuccess && (
          <Alert color="green" role="status">
            {t('saved')}
          </Alert>
        )}
        <Button type="submit" w="fit-content" loading={save.isPending}>
          {t('save')}
        </Button>
      </Stack>
    </form>
  );
}
