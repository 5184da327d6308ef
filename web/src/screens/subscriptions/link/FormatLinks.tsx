// The link in each format's path form (`links` of the API), each with a copy button: for an app whose User-Agent
// no format rule recognises, or to hand a format to someone on purpose.
import { ActionIcon, Code, CopyButton, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../queries';
import { SUBSCRIPTION_LINK } from './strings';

const FORMATS = ['base64', 'mihomo', 'sing-box', 'xray', 'sip008'] as const;

export function FormatLinks({ links }: { links: Subscription['links'] }) {
  const { t } = useTranslation(SUBSCRIPTION_LINK);
  return (
    <Stack gap="xs">
      <Title order={4} size="h5">
        {t('formats.title')}
      </Title>
      <Text size="sm">{t('formats.hint')}</Text>
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {FORMATS.map((format) => (
          <li key={format}>
            <Text size="sm" fw={600} id={`format-${format}`}>
              {t(`formats.${format}`)}
            </Text>
            <Group gap="xs" wrap="nowrap" align="center">
              <Code dir="ltr" aria-labelledby={`format-${format}`} style={{ wordBreak: 'break-all', flex: 1 }}>
                {links[format]}
              </Code>
              <CopyButton value={links[format]}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('formats.copied') : t('formats.copy', { format })} withArrow>
                    <ActionIcon
                      variant={copied ? 'filled' : 'default'}
                      color={copied ? 'teal' : undefined}
                      size="lg"
                      onClick={copy}
                      aria-label={t('formats.copy', { format })}
                    >
                      <CopyIcon />
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

function CopyIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor">
      <rect x="5.5" y="5.5" width="8" height="8" rx="1" />
      <path d="M3.5 10.5h-1v-8h8v1" />
    </svg>
  );
}
