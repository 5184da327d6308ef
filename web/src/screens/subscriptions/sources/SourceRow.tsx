// One source in the editor: its drag handle, kind, text, its health when it is a subscription URL, and its actions.
import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/numbers';
import { SOURCES } from './strings';
import type { Source } from './queries';
import type { useReorder } from './useReorder';

type HandleProps = ReturnType<ReturnType<typeof useReorder>['handleProps']>;

export interface RowActions {
  toggleHidden(source: Source): void;
  comment(source: Source): void;
  remove(source: Source): void;
}

interface Props {
  source: Source;
  name: string;
  /** Its handle's props from useReorder, or null when the list cannot be changed. */
  handle: HandleProps | null;
  rowRef: (element: HTMLElement | null) => void;
  dragging: boolean;
  busy: boolean;
  actions: RowActions | null;
  onAcceptShrink: () => void;
  hintId: string;
}

export function SourceRow({ source, name, handle, rowRef, dragging, busy, actions, onAcceptShrink, hintId }: Props) {
  const { t } = useTranslation(SOURCES);
  return (
    <Paper
      ref={rowRef}
      component="li"
      withBorder
      p="xs"
      shadow={dragging ? 'md' : undefined}
      bg={dragging ? 'var(--mantine-primary-color-light)' : undefined}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {handle && (
          <ActionIcon
            {...handle}
            variant="default"
            size="lg"
            aria-label={t('move.label', { name })}
            aria-describedby={hintId}
            style={{ touchAction: 'none', cursor: 'grab' }}
          >
            <span aria-hidden>⠿</span>
          </ActionIcon>
        )}
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Badge variant="light">{t(`types.${source.source_type}`)}</Badge>
            {source.is_hidden && <Badge color="gray">{t('hidden')}</Badge>}
            {/* A comment in any script, or an address that must read left to right. */}
            <Text fw={600} size="sm" dir="auto" style={{ wordBreak: 'break-word' }}>
              {name}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" dir="ltr" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {source.data}
          </Text>
          <Health source={source} busy={busy} onAccept={onAcceptShrink} />
          {actions && (
            <Group gap="xs">
              <Button
                size="compact-sm"
                variant="default"
                disabled={busy}
                onClick={() => actions.toggleHidden(source)}
                aria-label={t(source.is_hidden ? 'actions.showName' : 'actions.hideName', { name })}
              >
                {t(source.is_hidden ? 'actions.show' : 'actions.hide')}
              </Button>
              {source.source_type === 'config' && (
                <Button
                  size="compact-sm"
                  variant="default"
                  disabled={busy}
                  onClick={() => actions.comment(source)}
                  aria-label={t('actions.commentName', { name })}
                >
                  {t('actions.comment')}
                </Button>
              )}
              <Button
                size="compact-sm"
                variant="default"
                color="red.9"
                disabled={busy}
                onClick={() => actions.remove(source)}
                aria-label={t('actions.removeName', { name })}
              >
                {t('actions.remove')}
              </Button>
            </Group>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/** Last fetch, servers and last error of a subscription URL, and the held shrink; a reference's dangling state. */
function Health({ source, busy, onAccept }: { source: Source; busy: boolean; onAccept: () => void }) {
  const { t, i18n } = useTranslation(SOURCES);
  if (source.source_type === 'internal_token') {
    return source.last_error ? (
      <Alert color="red" p="xs">
        {t('health.dangling')}
      </Alert>
    ) : null;
  }
  if (source.source_type !== 'external_url') return null;
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <Stack gap={4}>
      <Group gap="md">
        <Text size="sm">
          {source.last_fetched_at
            ? t('health.lastFetch', { date: dates.format(new Date(source.last_fetched_at)) })
            : t('health.never')}
        </Text>
        <Text size="sm">{t('health.configs', { count: formatNumber(source.configs_count ?? 0, i18n.language) })}</Text>
      </Group>
      {source.last_error && !source.shrink_pending && (
        <Alert color="red" p="xs" style={{ wordBreak: 'break-word' }}>
          {t('health.error', { error: source.last_error })}
        </Alert>
      )}
      {source.shrink_pending && (
        <Alert
          color="yellow"
          title={t('health.shrink')}
          p="xs"
          // Yellow text on its light background is too faint to read; the title takes the body's colour.
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('health.shrinkHint')}</Text>
            {source.last_error && (
              <Text size="xs" dir="ltr" style={{ wordBreak: 'break-word' }}>
                {source.last_error}
              </Text>
            )}
            <Button size="compact-sm" loading={busy} onClick={onAccept}>
              {t('health.accept')}
            </Button>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
