// The admin console's bans and whitelist screen (docs/admin-api.md): who is kept out, and who is never kept out.
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BanSection } from './BanSection';
import { WhitelistSection } from './WhitelistSection';
import { ADMIN_BANS } from './strings';
import './bans.css';

export default function Bans() {
  const { t } = useTranslation(ADMIN_BANS);
  return (
    <Stack gap="xl">
      <Title order={3}>{t('title')}</Title>
      <BanSection />
      <WhitelistSection />
    </Stack>
  );
}
