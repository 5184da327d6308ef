// The Activity screen: the user's audit log (GET /api/v1/me/audit), newest first, older pages on demand.
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { paths } from '../../api/schema';
import { Loading } from '../../shell/Layout';
import { useSession } from '../../shell/session';
import { actionWords, summaryLines } from '../../audit/summary';
import { ACTIVITY } from './strings';
import { useAuditLog, useSubscriptionNames } from './queries';

type Entry = paths['/api/v1/me/audit']['get']['responses'][200]['content']['application/json']['entries'][number];

export default function Activity() {
  const { t, i18n } = useTranslation(ACTIVITY);
  const log = useAuditLog();
  const userId = useSession().data?.user_id;
  const names = useSubscriptionNames().data;
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      {log.isPending && <Loading />}
      {log.isError && (
        <Alert color="red" role="alert">
          {t('error', { message: log.error.message })}
        </Alert>
      )}
      {log.isSuccess && entries.length === 0 && <Text>{t('empty')}</Text>}
      <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('title')}>
        {entries.map((entry) => (
          <Paper key={entry.id} withBorder p="sm" component="li">
            <Text fw={600}>{actionWords(entry.action, t, ACTIVITY)}</Text>
            <Group gap="md" mt={4} wrap="wrap">
              <Text size="sm" c="dimmed">
                <time dateTime={entry.time}>{dates.format(new Date(entry.time))}</time>
              </Text>
              <Text size="sm">
                {t('actor')}: {actorName(entry, userId, t)}
              </Text>
              <Text size="sm">
                {t('target')}: <bdi>{targetName(entry, names, t)}</bdi>
              </Text>
            </Group>
            {summaryLines(entry, t, i18n.language).map((line) => (
              <Text key={line} size="sm" mt={2} style={{ overflowWrap: 'anywhere' }}>
                {line}
              </Text>
            ))}
          </Paper>
        ))}
      </Stack>
      {log.hasNextPage && (
        <Button
          variant="light"
          w="fit-content"
          loading={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {t('loadMore')}
        </Button>
      )}
      {log.isSuccess && entries.length > 0 && !log.hasNextPage && (
        <Text size="sm" c="dimmed">
          {t('end')}
        </Text>
      )}
    </Stack>
  );
}

function actorName(entry: Entry, userId: number | undefined, t: TFunction): string {
  const { kind, id } = entry.actor;
  if (kind === 'user') return userId === undefined || id === String(userId) ? t('actors.you') : id;
  if (kind === 'provider') return t('actors.provider', { name: id });
  return t(`actors.${kind}`);
}

/** `subscription:sub_…` shows the subscription's name (the entry's, else today's); `connection:42:acme` its provider. */
function targetName(entry: Entry, names: Map<string, string> | undefined, t: TFunction): string {
  const [kind = '', ...rest] = entry.target.split(':');
  const summary = entry.summary;
  const label = t(`targets.${kind}`, { defaultValue: kind });
  if (kind === 'user') return label;
  const name = typeof summary['name'] === 'string' ? summary['name'] : names?.get(rest.join(':'));
  if (kind === 'subscription' && name !== undefined) return t('targets.subscriptionNamed', { name });
  if (kind === 'connection') return `${label} ${rest.at(-1) ?? ''}`;
  return `${label} ${rest.join(':')}`;
}
