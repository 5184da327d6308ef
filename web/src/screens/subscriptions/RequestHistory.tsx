// The subscription's recent public fetches (GET /api/v1/subs/{token}/requests): which app asked, what it got, from where.
import { Alert, Button, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { Loading } from '../../shell/Layout';
import { SUBSCRIPTIONS } from './strings';
import { describeError } from './errors';

function useRequestHistory(token: string) {
  return useQuery({
    queryKey: ['subs', token, 'requests'],
    queryFn: () => unwrap(api.GET('/api/v1/subs/{token}/requests', { params: { path: { token } } })),
  });
}

export function RequestHistory({ token }: { token: string }) {
  const { t, i18n } = useTranslation(SUBSCRIPTIONS);
  const history = useRequestHistory(token);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  const numbers = new Intl.NumberFormat(i18n.language);
  const requests = history.data?.requests ?? [];
  const none = '—';

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h4" id="history-title">
          {t('history.title')}
        </Title>
        <Button variant="default" size="xs" loading={history.isFetching} onClick={() => void history.refetch()}>
          {t('history.refresh')}
        </Button>
      </Group>
      {history.isPending && <Loading />}
      {history.isError && (
        <Alert color="red" role="alert">
          {describeError(history.error, t)}
        </Alert>
      )}
      {history.isSuccess && requests.length === 0 && <Text>{t('history.empty')}</Text>}
      {requests.length > 0 && (
        // A narrow screen scrolls the table sideways; the region takes the focus so the keyboard can scroll it too.
        <div role="region" aria-labelledby="history-title" tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table striped miw={760} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('history.time')}</Table.Th>
                <Table.Th>{t('history.format')}</Table.Th>
                <Table.Th>{t('history.rule')}</Table.Th>
                <Table.Th>{t('history.status')}</Table.Th>
                <Table.Th>{t('history.userAgent')}</Table.Th>
                <Table.Th>{t('history.client')}</Table.Th>
                <Table.Th>{t('history.servers')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {requests.map((request, index) => (
                <Table.Tr key={`${request.at}-${index}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={request.at}>{dates.format(new Date(request.at))}</time>
                  </Table.Td>
                  <Table.Td dir="ltr">{request.format ?? none}</Table.Td>
                  <Table.Td dir="ltr">{request.rule ?? none}</Table.Td>
                  <Table.Td fw={request.status < 400 ? undefined : 700}>{request.status}</Table.Td>
                  <Table.Td>
                    {request.user_agent ? (
                      <Tooltip
                        label={request.user_agent}
                        multiline
                        w={320}
                        events={{ hover: true, focus: true, touch: true }}
                      >
                        <Text size="sm" dir="ltr" truncate="end" maw={220} tabIndex={0} ff="monospace">
                          {request.user_agent}
                        </Text>
                      </Tooltip>
                    ) : (
                      none
                    )}
                  </Table.Td>
                  <Table.Td dir="ltr">{request.client ?? none}</Table.Td>
                  <Table.Td>{request.servers === null ? none : numbers.format(request.servers)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Stack>
  );
}
