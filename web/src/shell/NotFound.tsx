// Any unknown path under /app/: the server answers index.html for it, and this screen says there is nothing there.
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SHELL } from './strings';

export function NotFound() {
  const { t } = useTranslation(SHELL);
  return (
    <Stack>
      <Title order={2}>{t('notFound.title')}</Title>
      <Text>{t('notFound.body')}</Text>
      <Anchor component={Link} to="/subs">
        {t('notFound.back')}
      </Anchor>
    </Stack>
  );
}
