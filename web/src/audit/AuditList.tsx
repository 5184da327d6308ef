// The audit log as a list, for the user's Activity and the admin's audit log alike: loading, failure and empty
// states, one card an entry (action, time, actor, target, summary), "Show older entries" while there are more, and a
// note at the end. Each screen words its own actors and targets and passes its catalog (`ns`).
import { Fragment, type ReactNode } from 'react';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loading } from '../shell/Layout';
import { summaryLines, type AuditEntryLike } from './summary';

interface Entry extends AuditEntryLike {
  id: string | number;
  time: string;
}

interface ListProps<E extends Entry> {
  /** The screen's catalog, which has `error`, `empty`, `loadMore`, `end`, `actor` and `target`. */
  ns: string;
  /** The list's accessible name. */
  label: string;
  log: UseInfiniteQueryResult<InfiniteData<{ entries: E[] }>>;
  /** One entry, as an AuditCard. */
  children: (entry: E) => ReactNode;
}

export function AuditList<E extends Entry>({ ns, label, log, children }: ListProps<E>) {
  const { t } = useTranslation(ns);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <>
      {log.isPending && <Loading />}
      {log.isError && (
        <Alert color="red" role="alert">
          {t('error', { message: log.error.message })}
        </Alert>
      )}
      {log.isSuccess && entries.length === 0 && <Text>{t('empty')}</Text>}
      <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
        {entries.map((entry) => (
          <Fragment key={entry.id}>{children(entry)}</Fragment>
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
    </>
  );
}

interface CardProps {
  ns: string;
  entry: Entry;
  action: string;
  actor: ReactNode;
  target: ReactNode;
  /** More facts after the target (the client's address). */
  more?: ReactNode;
  /** What follows the summary lines. */
  children?: ReactNode;
}

const WRAP = { overflowWrap: 'anywhere' } as const;

export function AuditCard({ ns, entry, action, actor, target, more, children }: CardProps) {
  const { t, i18n } = useTranslation(ns);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <Paper withBorder p="sm" component="li">
      <Text fw={600}>{action}</Text>
      <Group gap="md" mt={4} wrap="wrap">
        <Text size="sm" c="dimmed">
          <time dateTime={entry.time}>{dates.format(new Date(entry.time))}</time>
        </Text>
        <Text size="sm">
          {t('actor')}: {actor}
        </Text>
        <Text size="sm" style={WRAP}>
          {t('target')}: {target}
        </Text>
        {more}
      </Group>
      {summaryLines(entry, t, i18n.language).map((line) => (
        <Text key={line} size="sm" mt={2} style={WRAP}>
          {line}
        </Text>
      ))}
      {children}
    </Paper>
  );
}
