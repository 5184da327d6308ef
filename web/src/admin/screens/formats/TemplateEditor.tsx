// One structured format's template as text: save (errors shown at the field and the line the API names) or restore.
import { useState } from 'react';
import { Alert, Badge, Button, Code, Group, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import { ApiError } from '../../../api/client';
import { useConfirm } from '../../useConfirm';
import { fieldIssues } from '../../field-issues';
import { FORMATS } from './strings';
import { useRestoreTemplate, useSaveTemplate, useTemplate, type TemplatedFormat } from './queries';

const TEMPLATED: TemplatedFormat[] = ['mihomo', 'sing-box', 'xray'];

/** The 1-based line a parser's message names: `line 3`, or a JSON `position 42` counted in `text`. */
function namedLine(message: string, text: string): number | null {
  const line = /\bline (\d+)/i.exec(message);
  if (line) return Number(line[1]);
  const position = /\bposition (\d+)/i.exec(message);
  return position ? text.slice(0, Number(position[1])).split('\n').length : null;
}

/**
 * The line a refusal points at. The server names it for YAML; Node's JSON messages often name none, so for JSON the
 * browser's own parser, whose messages carry the line, is asked where the text stops being JSON.
 */
function problemLine(problem: string, text: string, format: TemplatedFormat): number | null {
  const named = namedLine(problem, text);
  if (named !== null || format === 'mihomo' || !problem.startsWith('not valid JSON')) return named;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return namedLine((error as Error).message, text);
  }
}

export function TemplateEditor() {
  const { t } = useTranslation(FORMATS);
  const [format, setFormat] = useState<TemplatedFormat>('sing-box');
  return (
    <Stack>
      <Title order={4}>{t('templates.title')}</Title>
      <Text size="sm">{t('templates.body')}</Text>
      <SegmentedControl
        aria-label={t('templates.format')}
        value={format}
        onChange={(value) => setFormat(value as TemplatedFormat)}
        data={TEMPLATED}
        w="fit-content"
      />
      <FormatTemplate key={format} format={format} />
    </Stack>
  );
}

function FormatTemplate({ format }: { format: TemplatedFormat }) {
  const { t } = useTranslation(FORMATS);
  const template = useTemplate(format);
  if (template.isError) return <Alert color="red">{t('loadFailed', { message: template.error.message })}</Alert>;
  return template.data ? (
    <TemplateForm format={format} initial={template.data.template} builtin={template.data.builtin} />
  ) : null;
}

interface FormProps {
  format: TemplatedFormat;
  initial: string;
  builtin: boolean;
}

/** The text as loaded once; later it changes by editing or by restoring the built-in template. */
function TemplateForm({ format, initial, builtin }: FormProps) {
  const { t } = useTranslation(FORMATS);
  const { id } = useNumbers();
  const save = useSaveTemplate(format);
  const restore = useRestoreTemplate(format);
  const [text, setText] = useState(initial);
  const restoring = useConfirm<void>(
    () => ({
      title: t('templates.restoreTitle'),
      body: t('templates.restoreBody', { format }),
      confirm: t('rules.restoreConfirm'),
      cancel: t('rules.cancel'),
    }),
    () => {
      save.reset();
      restore.mutate(undefined, { onSuccess: (answer) => setText(answer.template) });
    },
  );

  const failure = save.error ?? restore.error;
  // invalid_template names no field: its reason is about the template as a whole, so it goes there too.
  const problem =
    fieldIssues(failure)['template'] ??
    (failure instanceof ApiError && failure.code === 'invalid_template' ? failure.message : undefined);
  const line = problem ? problemLine(problem, text, format) : null;
  const lineText = line ? text.split('\n')[line - 1] : undefined;

  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Badge variant="outline" color="gray">
          {builtin ? t('templates.builtin') : t('templates.custom')}
        </Badge>
      </Group>
      <Textarea
        label={t('templates.label', { format })}
        value={text}
        dir="ltr"
        spellCheck={false}
        autosize
        minRows={10}
        maxRows={24}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        error={problem}
        onChange={(e) => {
          save.reset();
          setText(e.currentTarget.value);
        }}
      />
      {line !== null && lineText !== undefined && (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Text size="sm" c="var(--mantine-color-error)" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {t('templates.line', { line: id(line) })}
          </Text>
          <Code dir="ltr" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {lineText}
          </Code>
        </Group>
      )}
      {failure && !problem && (
        <Alert color="red" role="alert">
          {t('rules.refused', { message: failure.message })}
        </Alert>
      )}
      {save.isSuccess && (
        <Alert color="green" role="status">
          {t('templates.saved')}
        </Alert>
      )}
      <Group gap="xs">
        <Button loading={save.isPending} onClick={() => save.mutate(text)}>
          {t('templates.save')}
        </Button>
        <Button variant="default" loading={restore.isPending} disabled={builtin} onClick={() => restoring.ask()}>
          {t('templates.restore')}
        </Button>
      </Group>
      {restoring.dialog}
    </Stack>
  );
}
