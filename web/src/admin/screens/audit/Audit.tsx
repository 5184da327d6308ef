// The admin console's audit log (GET /api/v1/admin/audit): every accepted management write, newest first, filtered
// by actor, action, target and time, with older entries on demand.
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { summaryLines } from '../../../audit/summary';
import { Loading } from '../../../shell/Layout';
import { AuditFilters } from './AuditFilters';
import { FILTERS, useAdminAudit, type AuditEntry, type Filters } from './queries';
import { ADMIN_AUDIT } from './strings';
import { describeAction, describeActor, describeTarget, otherSummary } from './words';
import './audit.css';

export default function Audit() {
  const { t } = useTranslation(ADMIN_AUDIT);
  const [params, setParams] = useSearchParams();
  const filters: Filters = {};
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  const log = useAdminAudit(filters);
  // Back and Forward change the filters under the form: draw it anew from the address then, and only then (redrawing
  // it on Apply would take the keyboard focus away).
  const [formVersion, setFormVersion] = useState(0);
  useEffect(() => {
    const redraw = () => setFormVersion((version) => version + 1);
    window.addEventListener('popstate', redraw);
    return () => window.removeEventListener('popstate', redraw);
  }, []);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <Stack>
      <Title order={3}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      <AuditFilters key={formVersion} value={filters} onApply={(next) => setParams(next)} />
      {log.isPending && <Loading />}
      {log.isError && (
        <Alert color="red" role="alert">
          {t('error', { message: log.error.message })}
        </Alert>
      )}
      {log.isSuccess && entries.length === 0 && <Text>{t('empty')}</Text>}
      <Stack component="ol" gap="xs" p={0} m={0} className="admin-audit-list" aria-label={t('listLabel')}>
        {entries.map((entry) => (
          <Entry key={entry.id} entry={entry} />
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

function Entry({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation(ADMIN_AUDIT);
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  const target = describeTarget(entry.target, t);
  const other = otherSummary(entry, t, i18n.language);
  return (
    <Paper withBorder p="sm" component="li">
      <Text fw={600}>{describeAction(entry, t)}</Text>
      <Group gap="md" mt={4} wrap="wrap">
        <Text size="sm" c="dimmed">
          <time dateTime={entry.time}>{dates.format(new Date(entry.time))}</time>
        </Text>
        <Text size="sm">
          {t('actor')}: <bdi>{describeActor(entry.actor, t, i18n.language)}</bdi>
        </Text>
        <Text size="sm" className="admin-audit-wrap">
          {t('target')}: {target.label}{' '}
          <bdi dir="ltr" className="admin-audit-code">
            {target.id}
          </bdi>
        </Text>
        {entry.client_ip && (
          <Text size="sm">
            {t('clientIp')}: <bdi dir="ltr">{entry.client_ip}</bdi>
          </Text>
        )}
      </Group>
      {summaryLines(entry, t, i18n.language).map((line) => (
        <Text key={line} size="sm" mt={2} className="admin-audit-wrap">
          {line}
        </Text>
      ))}
      {/* Labels in the reader's language; values such as addresses, hosts and ids keep their own direction. */}
      {other.map(({ label, value }) => (
        <Text key={label} size="sm" mt={2} className="admin-audit-wrap">
          {label}: <bdi>{value}</bdi>
        </Text>
      ))}
    </Paper>
  );
}
