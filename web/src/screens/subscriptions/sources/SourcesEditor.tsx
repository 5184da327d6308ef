// A subscription's sources in order: what kind each is, whether it is hidden, and whether its last fetch failed.
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../queries';
import { SUBSCRIPTIONS } from '../strings';

export function SourcesEditor({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation(SUBSCRIPTIONS);
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {t('detail.sources')}
      </Title>
      {subscription.sources.length === 0 && <Text>{t('detail.noSources')}</Text>}
      <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {subscription.sources.map((source) => (
          <Paper key={source.id} withBorder p="xs" component="li">
            <Group gap="xs" mb={4}>
              <Badge variant="light">{t(`detail.types.${source.source_type}`)}</Badge>
              {source.is_hidden && <Badge color="gray">{t('detail.hidden')}</Badge>}
              {source.last_error && <Badge color="red">{t('detail.failing')}</Badge>}
            </Group>
            <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }} ff="monospace">
              {source.comment ?? source.data}
            </Text>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
