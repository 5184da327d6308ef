// The admin console's audit log (GET /api/v1/admin/audit): every accepted management write, newest first, filtered
// by actor, action, target and time, with older entries on demand.
import { useEffect, useState } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AuditCard, AuditList } from '../../../audit/AuditList';
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

  return (
    <Stack>
      <Title order={3}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      <AuditFilters key={formVersion} value={filters} onApply={(next) => setParams(next)} />
      <AuditList ns={ADMIN_AUDIT} label={t('listLabel')} log={log}>
        {(entry) => <Entry entry={entry} />}
      </AuditList>
    </Stack>
  );
}

function Entry({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation(ADMIN_AUDIT);
  const target = describeTarget(entry.target, t);
  const other = otherSummary(entry, t, i18n.language);
  return (
    <AuditCard
      ns={ADMIN_AUDIT}
      entry={entry}
      action={describeAction(entry, t)}
      actor={<bdi>{describeActor(entry.actor, t, i18n.language)}</bdi>}
      target={
        <>
          {target.label}{' '}
          <bdi dir="ltr" className="admin-audit-code">
            {target.id}
          </bdi>
        </>
      }
      more={
        entry.client_ip && (
          <Text size="sm">
            {t('clientIp')}: <bdi dir="ltr">{entry.client_ip}</bdi>
          </Text>
        )
      }
    >
      {/* Labels in the reader's language; values such as addresses, hosts and ids keep their own direction. */}
      {other.map(({ label, value }) => (
        <Text key={label} size="sm" mt={2} className="admin-audit-wrap">
          {label}: <bdi>{value}</bdi>
        </Text>
      ))}
    </AuditCard>
  );
}
