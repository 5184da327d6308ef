// Adding sources: a pasted block of many lines, or another of the user's subscriptions picked by name; both go through
// the paste endpoint, whose line-by-line report is shown in words.
import { useState } from 'react';
import { Alert, Badge, Button, Group, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { URI_SNIPPETS } from '../../../i18n/bidi';
import { useNumbers } from '../../../i18n/numbers';
import { useSubscriptions } from '../queries';
import { SOURCES } from './strings';
import { usePasteSources } from './queries';
import { describeError } from './errors';

type Report = Extract<NonNullable<ReturnType<typeof usePasteSources>['data']>, { lines: unknown }>;

export function AddSources({ token }: { token: string }) {
  const { t } = useTranslation(SOURCES);
  const paste = usePasteSources(token);
  const others = (useSubscriptions().data ?? []).filter((sub) => sub.token !== token);
  const [text, setText] = useState('');
  const [picked, setPicked] = useState('');
  const report = paste.data && 'lines' in paste.data ? paste.data : null;

  function submit(block: string, done: () => void) {
    paste.mutate(block, { onSuccess: done });
  }

  return (
    <Stack gap="sm">
      <Title order={4} size="h5">
        {t('add.title')}
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) submit(text, () => setText(''));
        }}
      >
        <Stack gap="xs" align="flex-start">
          <Textarea
            label={t('add.label')}
            description={t('add.hint', URI_SNIPPETS)}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            autosize
            minRows={3}
            maxRows={12}
            dir="ltr"
            w="100%"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Button type="submit" loading={paste.isPending && paste.variables === text} disabled={!text.trim()}>
            {t('add.submit')}
          </Button>
        </Stack>
      </form>
      <Stack gap="xs" align="flex-start">
        {others.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('add.noOthers')}
          </Text>
        ) : (
          <Group gap="xs" align="flex-end" w="100%">
            {/* The browser's own list: light, and the platform's picker on phones. */}
            <NativeSelect
              label={t('add.reference')}
              description={t('add.referenceHint')}
              data={[
                { value: '', label: t('add.referencePlaceholder') },
                ...others.map((sub) => ({ value: sub.link, label: sub.name })),
              ]}
              value={picked}
              onChange={(event) => setPicked(event.currentTarget.value)}
              style={{ flex: 1, minWidth: 200 }}
            />
            <Button variant="default" disabled={!picked} onClick={() => picked && submit(picked, () => setPicked(''))}>
              {t('add.include')}
            </Button>
          </Group>
        )}
      </Stack>
      {paste.isError && (
        <Alert color="red" role="alert">
          {describeError(paste.error, t)}
        </Alert>
      )}
      {report && !paste.isPending && <PasteReport report={report} />}
    </Stack>
  );
}

function PasteReport({ report }: { report: Report }) {
  const { t } = useTranslation(SOURCES);
  const { number, id } = useNumbers();
  return (
    <Paper withBorder p="sm" role="status">
      <Stack gap="xs">
        <Text fw={600}>{t('report.title')}</Text>
        <Text size="sm">{t('report.summary', { added: number(report.added), skipped: number(report.skipped) })}</Text>
        {report.base64 && <Text size="sm">{t('report.base64')}</Text>}
        <Stack component="ul" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
          {report.lines.map((line) => (
            <li key={line.line}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="default" style={{ flexShrink: 0 }}>
                  {t('report.line', { line: id(line.line) })}
                </Badge>
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="xs" dir="ltr" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {line.data}
                  </Text>
                  <Text size="sm" fw={line.status === 'added' ? undefined : 600}>
                    {line.reason ? t(`report.reasons.${line.reason}`) : t('report.added')}
                  </Text>
                </Stack>
              </Group>
            </li>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
