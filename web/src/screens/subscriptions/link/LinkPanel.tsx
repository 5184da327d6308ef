// A subscription's public link: what the user adds to their apps, as text to copy, as a QR code to scan, in each
// format's path form, and the way to replace it with a new one (rotation).
import { useLocation } from 'react-router';
import { Alert, Anchor, Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../queries';
import { SUBSCRIPTIONS } from '../strings';
import { SUBSCRIPTION_LINK } from './strings';
import { QrCode } from './QrCode';
import { FormatLinks } from './FormatLinks';
import { RotateLink } from './RotateLink';

export function LinkPanel({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation(SUBSCRIPTIONS);
  const { t: tl } = useTranslation(SUBSCRIPTION_LINK);
  const { link } = subscription;
  // RotateLink navigates here with this state: the link on screen is the new one.
  const rotated = (useLocation().state as { rotated?: boolean } | null)?.rotated === true;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h4" id="link-title">
          {t('detail.link')}
        </Title>
        <Text size="sm">{t('detail.linkHint')}</Text>
        {rotated && (
          <Alert color="teal" role="status">
            {tl('rotate.done')}
          </Alert>
        )}
        <Group align="flex-start" gap="md">
          <QrCode value={link} label={tl('qr')} />
          <Stack gap="xs" style={{ flex: '1 1 16rem', minWidth: 0 }}>
            <Code
              block
              dir="ltr"
              aria-labelledby="link-title"
              style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
            >
              {link}
            </Code>
            <Group gap="xs">
              <CopyButton value={link}>
                {({ copied, copy }) => (
                  <Button onClick={copy} color={copied ? 'teal' : undefined}>
                    {copied ? t('detail.copied') : t('detail.copy')}
                  </Button>
                )}
              </CopyButton>
              <RotateLink subscription={subscription} />
            </Group>
            <Text size="sm">
              <Anchor href={subscription.links.page} target="_blank" rel="noopener">
                {tl('openPage')}
              </Anchor>
            </Text>
          </Stack>
        </Group>
        <FormatLinks links={subscription.links} />
      </Stack>
    </Paper>
  );
}
