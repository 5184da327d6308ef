// A subscription's public link with a copy button: what the user adds to their apps.
import { Button, Code, CopyButton, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SUBSCRIPTIONS } from '../strings';

export function LinkPanel({ link }: { link: string }) {
  const { t } = useTranslation(SUBSCRIPTIONS);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={3} size="h4" id="link-title">
          {t('detail.link')}
        </Title>
        <Text size="sm">{t('detail.linkHint')}</Text>
        <Code block dir="ltr" aria-labelledby="link-title" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {link}
        </Code>
        <CopyButton value={link}>
          {({ copied, copy }) => (
            <Button onClick={copy} color={copied ? 'teal' : undefined} w="fit-content">
              {copied ? t('detail.copied') : t('detail.copy')}
            </Button>
          )}
        </CopyButton>
      </Stack>
    </Paper>
  );
}
