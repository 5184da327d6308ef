// The admin console's formats screen: the format rules with a preview, the templates, and the xray setting.
import { Alert, Divider, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ADMIN } from '../../strings';
import { FORMATS } from './strings';
import { useFormatSettings, useSaveFormatSettings } from './queries';
import { RulesEditor } from './RulesEditor';
import { TemplateEditor } from './TemplateEditor';

export default function Formats() {
  const { t } = useTranslation(FORMATS);
  const admin = useTranslation(ADMIN).t;
  return (
    <Stack>
      <Title order={3}>{admin('nav.formats')}</Title>
      <Text>{t('intro')}</Text>
      <RulesEditor />
      <Divider />
      <TemplateEditor />
      <Divider />
      <XraySetting />
    </Stack>
  );
}

function XraySetting() {
  const { t } = useTranslation(FORMATS);
  const settings = useFormatSettings();
  const save = useSaveFormatSettings();
  return (
    <Stack gap="xs">
      <Title order={4}>{t('settings.title')}</Title>
      {settings.data && (
        <Switch
          label={t('settings.xray')}
          description={t('settings.xrayBody')}
          checked={settings.data.xray_allow_insecure}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.currentTarget.checked)}
        />
      )}
      {(settings.error ?? save.error) && (
        <Alert color="red" role="alert">
          {t('loadFailed', { message: (settings.error ?? save.error)?.message })}
        </Alert>
      )}
    </Stack>
  );
}
