// A subscription's sources in the order its link serves them: reorder (drag or keyboard), hide, comment, remove, add
// many at once or another subscription by name, and each subscription URL's health with refresh and held shrinks.
import { useId, useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import { useSubscriptions, type Subscription } from '../queries';
import { useConnections } from '../../connections/queries';
import { SOURCES } from './strings';
import { useChangeSource, useRefreshSources, useRemoveSource, useReorderSources, type Source } from './queries';
import { useReorder, type Step } from './useReorder';
import { SourceRow, type RowActions } from './SourceRow';
import { AddSources } from './AddSources';
import { CommentDialog, RemoveDialog } from './SourceDialogs';
import { describeError } from './errors';

const hostOf = (data: string): string | null => {
  try {
    const url = new URL(data);
    return url.hostname ? url.host + (url.protocol.startsWith('http') ? url.pathname : '') : null;
  } catch {
    return null;
  }
};

/** What a person calls a source: its comment, the referenced subscription's name, or its address. */
function sourceName(source: Source, names: Map<string, string>, position: string, t: TFunction): string {
  if (source.comment) return source.comment;
  if (source.source_type === 'internal_token') {
    return names.get(source.data.split('/').pop() ?? '') ?? t('types.internal_token');
  }
  return hostOf(source.data) ?? t('unnamed', { position });
}

export function SourcesEditor({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation(SOURCES);
  const { number, id: digits } = useNumbers();
  const token = subscription.token;
  // Changes are refused only while the managing provider's connection is approved (docs/api.md, Access); until the
  // connections are known, a managed subscription stays read-only.
  const connections = useConnections().data?.connections;
  const managed =
    subscription.provider_name !== null &&
    (connections === undefined ||
      connections.some((c) => c.provider_name === subscription.provider_name && c.status === 'approved'));
  const names = new Map((useSubscriptions().data ?? []).map((sub) => [sub.token, sub.name]));
  const reorderSources = useReorderSources(token);
  const change = useChangeSource(token);
  const remove = useRemoveSource(token);
  const refresh = useRefreshSources(token);
  const [commenting, setCommenting] = useState<Source | null>(null);
  const [removing, setRemoving] = useState<Source | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const hintId = useId();
  const titleId = useId();

  const byId = new Map(subscription.sources.map((source) => [source.id, source]));
  const nameOf = (id: string) => {
    const source = byId.get(id);
    return source ? sourceName(source, names, digits(subscription.sources.indexOf(source) + 1), t) : id;
  };
  const reorder = useReorder(
    subscription.sources.map((source) => source.id),
    (order) => reorderSources.mutateAsync(order),
    (step: Step) =>
      setAnnouncement(
        t(`move.${step.kind}`, {
          name: nameOf(step.id),
          position: number(step.position),
          total: number(step.total),
        }),
      ),
  );

  const actions: RowActions = {
    toggleHidden: (source) => change.mutate({ id: source.id, is_hidden: !source.is_hidden }),
    comment: setCommenting,
    remove: setRemoving,
  };
  // Only the latest action's error shows: an older failure is stale once something else was tried.
  const latest = [reorderSources, change, remove, refresh].reduce((a, b) => (b.submittedAt > a.submittedAt ? b : a));
  const failure = latest.isError ? latest.error : null;
  const report = refresh.data;

  return (
    <Stack component="section" gap="sm" aria-labelledby={titleId}>
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h4" id={titleId}>
          {t('title')}
        </Title>
        {subscription.sources.some((source) => source.source_type === 'external_url') && (
          <Button
            variant="default"
            loading={refresh.isPending && !refresh.variables}
            disabled={refresh.isPending}
            onClick={() => refresh.mutate(false)}
            title={t('refresh.hint')}
          >
            {t('refresh.button')}
          </Button>
        )}
      </Group>
      {managed && <Text size="sm">{t('managed', { provider: subscription.provider_name })}</Text>}
      {report && !refresh.isPending && (
        <Alert color={report.failed > 0 ? 'yellow' : 'green'} role="status">
          <Text size="sm">
            {t('refresh.report', {
              refreshed: number(report.refreshed),
              failed: number(report.failed),
              skipped: number(report.skipped),
            })}
          </Text>
          {report.errors?.map((error) => (
            <Text key={error} size="xs" dir="ltr" style={{ wordBreak: 'break-all' }}>
              {error}
            </Text>
          ))}
        </Alert>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {describeError(failure, t)}
        </Alert>
      )}
      {subscription.sources.length === 0 && <Text>{t('empty')}</Text>}
      <VisuallyHidden id={hintId}>{t('move.hint')}</VisuallyHidden>
      <VisuallyHidden aria-live="assertive" aria-atomic>
        {announcement}
      </VisuallyHidden>
      <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('order')}>
        {reorder.order.flatMap((id) => {
          const source = byId.get(id);
          if (!source) return [];
          const busy =
            (change.isPending && change.variables.id === id) ||
            (remove.isPending && remove.variables === id) ||
            (refresh.isPending && refresh.variables === true);
          return (
            <SourceRow
              key={id}
              source={source}
              name={nameOf(id)}
              handle={managed ? null : reorder.handleProps(id)}
              rowRef={reorder.rowRef(id)}
              dragging={reorder.dragging === id}
              busy={busy}
              actions={managed ? null : actions}
              onAcceptShrink={() => refresh.mutate(true)}
              hintId={hintId}
            />
          );
        })}
      </Stack>
      {!managed && <AddSources token={token} />}
      <CommentDialog
        source={commenting}
        name={commenting ? nameOf(commenting.id) : ''}
        onSave={(comment) => {
          if (commenting) change.mutate({ id: commenting.id, comment });
          setCommenting(null);
        }}
        onClose={() => setCommenting(null)}
      />
      <RemoveDialog
        name={removing ? nameOf(removing.id) : ''}
        opened={removing !== null}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
