// The live preview beside the chain: how many servers the link would serve with the chain being edited, the first
// names, and why the preview failed when it did (a refused operator is shown at the operator instead).
import { Alert, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { TRANSFORMS } from './strings';
import { serverNames } from './names';

/** Names shown under the preview; the count says how many there are in all. */
const SHOWN = 20;

export interface PreviewState {
  served: number | undefined;
  body: string | undefined;
  updating: boolean;
  /** A failure not tied to one operator (the operator's own refusal shows at the operator). */
  failure: string | undefined;
}

export function PreviewPanel({ served, body, updating, failure }: PreviewState) {
  const { t, i18n } = useTranslation(TRANSFORMS);
  const titleId = useId();
  const namesId = useId();
  const names = body === undefined ? [] : serverNames(body, SHOWN);
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);

  return (
    <Paper component="section" withBorder p="sm" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={4} size="h5" id={titleId}>
          {t('previewTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('previewHint')}
        </Text>
        <Group gap="xs" role="status" mih={24}>
          {updating && (
            <>
              <Loader size="xs" />
              <Text size="sm">{t('previewUpdating')}</Text>
            </>
          )}
        </Group>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        {served !== undefined && !failure && (
          <>
            <Text fw={600}>{t('served', { count: number(served) })}</Text>
            {names.length === 0 ? (
              <Text>{t('noServers')}</Text>
            ) : (
              <>
                <Text size="sm" id={namesId}>
                  {t('firstNames', { count: number(SHOWN) })}
                </Text>
                <Stack component="ol" gap={2} m={0} ps="lg" aria-labelledby={namesId}>
                  {names.map((name, index) => (
                    <Text component="li" key={index} size="sm" dir="auto" style={{ overflowWrap: 'anywhere' }}>
                      {name}
                    </Text>
                  ))}
                </Stack>
              </>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
