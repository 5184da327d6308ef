// The admin console's statistics: key numbers of a range (last 24 hours, 7 or 30 days) and charts of its requests
// and new accounts slot by slot, from GET /api/v1/admin/stats (docs/admin-api.md).
import { useState } from 'react';
import { Alert, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../shell/Layout';
import { BarChart } from './BarChart';
import { HorizontalBarChart } from './HorizontalBarChart';
import { useStats, type Stats as StatsAnswer, type StatsRange } from './queries';
import { ADMIN_STATS } from './strings';
import './charts.css';

const RANGES: StatsRange[] = ['day', 'week', 'month'];
const NUMBERS = [
  'total_users',
  'total_subscriptions',
  'total_providers',
  'total_requests',
  'new_users',
  'new_subscriptions',
] as const;
const KINDS = ['public', 'page', 'user', 'provider', 'admin', 'anonymous'] as const;

export default function Stats() {
  const { t, i18n } = useTranslation(ADMIN_STATS);
  const [range, setRange] = useState<StatsRange>('week');
  const stats = useStats(range);
  const numbers = new Intl.NumberFormat(i18n.language);
  const format = (value: number) => numbers.format(value);
  const slotLabel = new Intl.DateTimeFormat(
    i18n.language,
    range === 'day'
      ? { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }
      : { month: 'short', day: 'numeric', timeZone: 'UTC' },
  );
  const chartText = { format, showTable: t('showTable'), hideTable: t('hideTable') };
  const slots = stats.data?.slots ?? [];
  const labels = slots.map((slot) => slotLabel.format(new Date(slot.start)));
  const labelHeader = t(range === 'day' ? 'hourHeader' : 'dayHeader');
  const series = (pick: (stats: StatsAnswer) => number) => slots.map((slot) => pick(slot.stats));

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{t('title')}</Title>
        <Button variant="default" size="xs" loading={stats.isFetching} onClick={() => void stats.refetch()}>
          {t('refresh')}
        </Button>
      </Group>
      <SegmentedControl
        value={range}
        onChange={(value) => setRange(value as StatsRange)}
        data={RANGES.map((value) => ({ value, label: t(`ranges.${value}`) }))}
        aria-label={t('rangeLabel')}
        w="fit-content"
      />
      {stats.isPending && <Loading />}
      {stats.isError && (
        <Alert color="red" role="alert">
          {t('error', { message: stats.error.message })}
        </Alert>
      )}
      {stats.data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3 }} component="dl" m={0}>
            {NUMBERS.map((key) => (
              <Paper key={key} withBorder p="sm">
                <Text component="dt" size="sm">
                  {t(`numbers.${key}`)}
                </Text>
                <Text component="dd" m={0} fz="xl" fw={700} data-number={key}>
                  {format(stats.data.total[key])}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            {t('utc')}
          </Text>
          <Paper withBorder p="sm">
            <BarChart
              title={t(range === 'day' ? 'charts.requestsPerHour' : 'charts.requestsPerDay')}
              labels={labels}
              series={[{ name: t('numbers.total_requests'), values: series((one) => one.total_requests) }]}
              labelHeader={labelHeader}
              {...chartText}
            />
          </Paper>
          <Paper withBorder p="sm">
            <BarChart
              title={t(range === 'day' ? 'charts.newPerHour' : 'charts.newPerDay')}
              labels={labels}
              series={[
                { name: t('numbers.new_users'), values: series((one) => one.new_users) },
                { name: t('numbers.new_subscriptions'), values: series((one) => one.new_subscriptions) },
              ]}
              labelHeader={labelHeader}
              {...chartText}
            />
          </Paper>
          <Paper withBorder p="sm">
            <HorizontalBarChart
              title={t('charts.byKind')}
              labels={KINDS.map((kind) => t(`kinds.${kind}`))}
              series={[
                {
                  name: t('numbers.total_requests'),
                  values: KINDS.map((kind) => stats.data.total.requests_by_kind[kind]),
                },
              ]}
              labelHeader={t('kindHeader')}
              {...chartText}
            />
          </Paper>
        </>
      )}
    </Stack>
  );
}
