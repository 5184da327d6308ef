// The format rule list as editable cards: reorder, add, remove, save all at once, with the API's errors at each field.
import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useConfirm } from '../../useConfirm';
import { fieldIssues } from '../../field-issues';
import { FORMATS } from './strings';
import { useRestoreRules, useRules, useSaveRules, type Rule } from './queries';
import { RulePreview } from './RulePreview';
import { RuleCard } from './RuleCard';

/** A rule with a key that stays with it while it moves, for React and for focus. */
interface Row {
  key: number;
  rule: Rule;
}

let nextKey = 0;
const toRows = (rules: Rule[]): Row[] => rules.map((rule) => ({ key: nextKey++, rule }));

/** Field errors of a refused list: validation issues by path, or invalid_pattern's rule index. */
function rowErrors(error: unknown): Record<string, string> {
  if (error instanceof ApiError && error.code === 'invalid_pattern' && typeof error.details?.['index'] === 'number') {
    return { [`rules.${error.details['index']}.value`]: error.message };
  }
  return fieldIssues(error);
}

export function RulesEditor() {
  const { t } = useTranslation(FORMATS);
  const rules = useRules();
  if (rules.isError) return <Alert color="red">{t('loadFailed', { message: rules.error.message })}</Alert>;
  return rules.data ? <RulesForm initial={rules.data.rules} /> : null;
}

/** The list as loaded once; later it changes by editing, by the answer of a save, or by restoring the defaults. */
function RulesForm({ initial }: { initial: Rule[] }) {
  const { t } = useTranslation(FORMATS);
  const save = useSaveRules();
  const restore = useRestoreRules();
  const [rows, setRows] = useState<Row[]>(() => toRows(initial));
  const [errors, setErrors] = useState<{ fields: Record<string, string>; message: string } | null>(null);

  const draft = rows.map((row) => row.rule);
  const showError = (error: unknown) =>
    setErrors({ fields: rowErrors(error), message: error instanceof Error ? error.message : String(error) });
  const restoring = useConfirm<void>(
    () => ({
      title: t('rules.restoreTitle'),
      body: t('rules.restoreBody'),
      confirm: t('rules.restoreConfirm'),
      cancel: t('rules.cancel'),
    }),
    () => {
      setErrors(null);
      save.reset();
      restore.mutate(undefined, { onError: showError, onSuccess: (answer) => setRows(toRows(answer.rules)) });
    },
  );
  const change = (index: number, patch: Partial<Rule>) => {
    save.reset();
    setRows(rows.map((row, i) => (i === index ? { ...row, rule: { ...row.rule, ...patch } } : row)));
  };
  // Errors name rules by position: once rules move or go, they would point at the wrong ones.
  const reshape = (next: Row[]) => {
    setErrors(null);
    setRows(next);
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    reshape(next);
    // Moving a card's DOM node takes the focus off its button; give it back, or to the other one at either end.
    requestAnimationFrame(() => {
      const same = document.getElementById(`rule-${row!.key}-${by === -1 ? 'up' : 'down'}`) as HTMLButtonElement | null;
      (same && !same.disabled
        ? same
        : document.getElementById(`rule-${row!.key}-${by === -1 ? 'down' : 'up'}`)
      )?.focus();
    });
  };

  return (
    <Stack>
      <Title order={4}>{t('rules.title')}</Title>
      {rows.length === 0 && <Text>{t('rules.empty')}</Text>}
      {rows.map((row, index) => (
        <RuleCard
          key={row.key}
          headingId={`rule-${row.key}`}
          rule={row.rule}
          index={index}
          last={index === rows.length - 1}
          error={(field) => errors?.fields[`rules.${index}.${field}`]}
          onChange={(patch) => change(index, patch)}
          onMove={(by) => move(index, by)}
          onRemove={() => reshape(rows.filter((_, i) => i !== index))}
        />
      ))}
      {errors && (
        <Alert color="red" role="alert">
          {t('rules.refused', { message: errors.message })}
        </Alert>
      )}
      {save.isSuccess && (
        <Alert color="green" role="status">
          {t('rules.saved')}
        </Alert>
      )}
      <Group gap="xs">
        <Button
          variant="default"
          onClick={() =>
            setRows([
              ...rows,
              ...toRows([
                {
                  id: `rule-${rows.length + 1}`,
                  header: 'user-agent',
                  match: 'contains',
                  value: '',
                  case_sensitive: false,
                  enabled: true,
                  result: 'base64',
                },
              ]),
            ])
          }
        >
          {t('rules.add')}
        </Button>
        <Button
          loading={save.isPending}
          onClick={() => {
            setErrors(null);
            save.mutate(draft, { onError: showError });
          }}
        >
          {t('rules.save')}
        </Button>
        <Button variant="default" loading={restore.isPending} onClick={() => restoring.ask()}>
          {t('rules.restore')}
        </Button>
      </Group>
      <RulePreview rules={draft} onRefused={showError} onAccepted={() => setErrors(null)} />
      {restoring.dialog}
    </Stack>
  );
}
