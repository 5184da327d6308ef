// Screens named in the navigation but not built yet: says so plainly and points at the API that already does the work.
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SHELL } from '../../shell/strings';

const TITLES = {
  admin: 'nav.admin',
} as const;

export default function Placeholder({ screen }: { screen: keyof typeof TITLES }) {
  const { t } = useTranslation(SHELL);
  return (
    <Stack>
      <Title order={2}>{t(TITLES[screen])}</Title>
      <Text>{t('placeholder.body')}</Text>
    </Stack>
  );
}
