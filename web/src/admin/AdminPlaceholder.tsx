// What an admin screen shows until it is built: its name and a plain sentence.
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ADMIN } from './strings';
import type { AdminScreen } from './screen-list';

export function AdminPlaceholder({ screen }: { screen: AdminScreen }) {
  const { t } = useTranslation(ADMIN);
  return (
    <Stack>
      <Title order={3}>{t(`nav.${screen}`)}</Title>
      <Text>{t('placeholder')}</Text>
    </Stack>
  );
}
