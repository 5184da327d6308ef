// An endpoint's delivery log: each message with its attempts (time, status, duration, the answer's first 1 KiB), redeliver.
import { Alert, Badge, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import { WEBHOOKS } from './strings';
import { useDeliveries, useRedeliver, type Delivery } from './queries';

const STATUS_COLOR = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

export function Deliveries({ webhookId, headingId }: { webhookId: string; headingId: string }) {
  const { t, i18n } = useTranslation(WEBHOOKS);
  const deliveries = useDeliveries(webhookId);
  const redeliver = useRedeliver(webhookId);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Group justify="space-between">
        <Title order={5} id={headingId}>
          {t('deliveries.title')}
        </Title>
        <Button size="xs" variant="default" loading={deliveries.isFetching} onClick={() => void deliveries.refetch()}>
          {t('deliveries.refresh')}
        </Button>
      </Group>
      {deliveries.isError && <Alert color="red">{t('loadFailed', { message: deliveries.error.message })}</Alert>}
      {redeliver.isError && (
        <Alert color="red" role="alert">
          {t('refused', { message: redeliver.error.message })}
        </Alert>
      )}
      {deliveries.data?.length === 0 && <Text size="sm">{t('deliveries.none')}</Text>}
      {deliveries.data?.map((delivery) => (
        <DeliveryItem
          key={delivery.id}
          delivery={delivery}
          dates={dates}
          redelivering={redeliver.isPending && redeliver.variables === delivery.id}
          onRedeliver={() => redeliver.mutate(delivery.id)}
        />
      ))}
    </Stack>
  );
}

interface ItemProps {
  delivery: Delivery;
  dates: Intl.DateTimeFormat;
  redelivering: boolean;
  onRedeliver: () => void;
}

function DeliveryItem({ delivery, dates, redelivering, onRedeliver }: ItemProps) {
  const { t } = useTranslation(WEBHOOKS);
  const { number } = useNumbers();
  return (
    <Paper withBorder p="xs">
      <Stack gap={6}>
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <Text fw={600} dir="ltr">
              {delivery.event_type}
            </Text>
            <Badge color={STATUS_COLOR[delivery.status]} variant="light" c="bright">
              {t(`deliveries.status.${delivery.status}`)}
            </Badge>
            <Text size="sm" c="dimmed">
              {dates.format(new Date(delivery.created_at))}
            </Text>
          </Group>
          <Button size="xs" variant="default" loading={redelivering} onClick={onRedeliver}>
            {t('deliveries.redeliver')}
          </Button>
        </Group>
        {delivery.next_attempt_at && (
          <Text size="sm">
            {t('deliveries.nextAttempt', { time: dates.format(new Date(delivery.next_attempt_at)) })}
          </Text>
        )}
        {delivery.attempts.length > 0 && (
          // A narrow screen scrolls the table sideways; the region takes the focus so the keyboard can scroll it too.
          <div
            role="region"
            aria-label={t('deliveries.attemptsLabel', { event: delivery.event_type })}
            tabIndex={0}
            style={{ overflowX: 'auto' }}
          >
            <Table withTableBorder verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('deliveries.time')}</Table.Th>
                  <Table.Th>{t('deliveries.answer')}</Table.Th>
                  <Table.Th>{t('deliveries.duration')}</Table.Th>
                  <Table.Th>{t('deliveries.response')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {delivery.attempts.map((attempt) => (
                  <Table.Tr key={attempt.time}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{dates.format(new Date(attempt.time))}</Table.Td>
                    <Table.Td>{attempt.status_code ?? t('deliveries.noAnswer')}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {t('deliveries.ms', { ms: number(attempt.duration_ms) })}
                    </Table.Td>
                    <Table.Td>
                      <Code dir="ltr" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                        {attempt.response}
                      </Code>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        )}
      </Stack>
    </Paper>
  );
}
