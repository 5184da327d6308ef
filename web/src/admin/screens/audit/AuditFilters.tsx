// The audit log's filters (actor, action, target, since, until) as a form; applying puts them in the address, so a
// filtered view can be bookmarked or shared with another admin.
import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Examples } from '../../Examples';
import type { Filters } from './queries';
import { ADMIN_AUDIT } from './strings';
import { describeAction, KNOWN_ACTIONS } from './words';

/** An ISO time as the value of a datetime-local field (the browser's time zone), and back. */
const toLocalInput = (iso: string | undefined): string => {
  if (!iso) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  return new Date(time.getTime() - time.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value: string): string | undefined => (value ? new Date(value).toISOString() : undefined);

export function AuditFilters({ value, onApply }: { value: Filters; onApply: (filters: Filters) => void }) {
  const { t } = useTranslation(ADMIN_AUDIT);
  const [actor, setActor] = useState(value.actor ?? '');
  const [action, setAction] = useState<string | null>(value.action ?? null);
  const [target, setTarget] = useState(value.target ?? '');
  const [since, setSince] = useState(toLocalInput(value.since));
  const [until, setUntil] = useState(toLocalInput(value.until));
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (since && until && new Date(since) >= new Date(until)) return setProblem(t('filters.untilBeforeSince'));
    setProblem(null);
    const next: Filters = {};
    if (actor.trim()) next.actor = actor.trim();
    if (action) next.action = action;
    if (target.trim()) next.target = target.trim();
    const sinceIso = fromLocalInput(since);
    const untilIso = fromLocalInput(until);
    if (sinceIso) next.since = sinceIso;
    if (untilIso) next.until = untilIso;
    onApply(next);
  }

  function clear() {
    setActor('');
    setAction(null);
    setTarget('');
    setSince('');
    setUntil('');
    setProblem(null);
    onApply({});
  }

  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} noValidate aria-label={t('filters.label')}>
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
          <TextInput
            label={t('filters.actor')}
            description={
              <Examples lead={t('filters.examples')} samples={['admin', 'user:42', 'provider:mybot', 'admin:cli']} />
            }
            value={actor}
            onChange={(event) => setActor(event.currentTarget.value)}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
          />
          <Select
            label={t('filters.action')}
            description={t('filters.actionHint')}
            value={action}
            onChange={setAction}
            data={KNOWN_ACTIONS.map((code) => ({
              value: code,
              label: describeAction({ action: code, summary: {} }, t),
            }))}
            searchable
            clearable
          />
          <TextInput
            label={t('filters.target')}
            description={
              <Examples lead={t('filters.examples')} samples={['user:42', 'provider:mybot', 'ban:10.0.0.0/24']} />
            }
            value={target}
            onChange={(event) => setTarget(event.currentTarget.value)}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
          />
          <TextInput
            type="datetime-local"
            label={t('filters.since')}
            value={since}
            onChange={(event) => setSince(event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('filters.until')}
            value={until}
            onChange={(event) => setUntil(event.currentTarget.value)}
            error={problem}
          />
        </SimpleGrid>
        <Group gap="xs">
          <Button type="submit">{t('filters.apply')}</Button>
          <Button variant="default" onClick={clear}>
            {t('filters.clear')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
