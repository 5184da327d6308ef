// The format rule list as editable cards: reorder, add, remove, save all at once, with the API's errors at each field.
import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { ConfirmDialog } from '../../ConfirmDialog';
import { fieldIssues } from '../../field-issues';
import { FORMATS } from './strings';
import { useRestoreRules, useRules, useSaveRules, type Rule } from './queries';
import { RulePreview } from './RulePreview';

const MATCHES: Rule['match'][] = ['contains', 'prefix', 'equals', 'regex'];
const RESULTS: Rule['result'][] = ['mihomo', 'sing-box', 'xray', 'base64', 'plain', 'sip008', 'page', 'block'];

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
  const [confirming, setConfirming] = useState(false);

  const draft = rows.map((row) => row.rule);
  const showError = (error: unknown) =>
    setErrors({ fields: rowErrors(error), message: error instanceof Error ? error.message : String(error) });
  const change = (index: number, patch: Partial<Rule>) => {
    save.reset();
    setRows(rows.map((row, i) => (i === index ? { ...row, rule: { ...row.rule, ...patch } } : row)));
  };
  const move = (index: number, by: number) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    setRows(next);
  };

  return (
    <Stack>
      <Title order={4}>{t('rules.title')}</Title>
      {rows.length === 0 && <Text>{t('rules.empty')}</Text>}
      {rows.map((row, index) => {
        const error = (field: string) => errors?.fields[`rules.${index}.${field}`];
        const { rule } = row;
        return (
          <Paper key={row.key} withBorder p="sm" component="section" aria-labelledby={`rule-${row.key}`}>
            <Stack gap="xs">
              <Title order={5} id={`rule-${row.key}`}>
                {t('rules.rule', { number: index + 1 })}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                <TextInput
                  label={t('rules.id')}
                  value={rule.id}
                  dir="ltr"
                  error={error('id')}
                  onChange={(e) => change(index, { id: e.currentTarget.value })}
                />
                <TextInput
                  label={t('rules.header')}
                  value={rule.header}
                  dir="ltr"
                  error={error('header')}
                  onChange={(e) => change(index, { header: e.currentTarget.value })}
                />
                <NativeSelect
                  label={t('rules.match')}
                  value={rule.match}
                  data={MATCHES.map((m) => ({ value: m, label: t(`rules.matches.${m}`) }))}
                  onChange={(e) => change(index, { match: e.currentTarget.value as Rule['match'] })}
                />
              </SimpleGrid>
              <TextInput
                label={t('rules.value')}
                value={rule.value}
                dir="ltr"
                ff="monospace"
                error={error('value')}
                onChange={(e) => change(index, { value: e.currentTarget.value })}
              />
              <Group gap="md" align="flex-end">
                <NativeSelect
                  label={t('rules.result')}
                  value={rule.result === 'clash' ? 'mihomo' : rule.result}
                  data={RESULTS.map((r) => ({ value: r, label: r === 'block' || r === 'page' ? t(`rules.${r}`) : r }))}
                  error={error('result')}
                  onChange={(e) => change(index, { result: e.currentTarget.value as Rule['result'] })}
                />
                <Checkbox
                  label={t('rules.enabled')}
                  checked={rule.enabled}
                  onChange={(e) => change(index, { enabled: e.currentTarget.checked })}
                />
                <Checkbox
                  label={t('rules.caseSensitive')}
                  checked={rule.case_sensitive}
                  onChange={(e) => change(index, { case_sensitive: e.currentTarget.checked })}
                />
              </Group>
              <Group gap="xs">
                <Button size="xs" variant="default" disabled={index === 0} onClick={() => move(index, -1)}>
                  {t('rules.up')}
                </Button>
                <Button size="xs" variant="default" disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                  {t('rules.down')}
                </Button>
                <Button size="xs" variant="default" onClick={() => setRows(rows.filter((_, i) => i !== index))}>
                  {t('rules.remove')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        );
      })}
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
        <Button variant="default" loading={restore.isPending} onClick={() => setConfirming(true)}>
          {t('rules.restore')}
        </Button>
      </Group>
      <RulePreview rules={draft} onRefused={showError} onAccepted={() => setErrors(null)} />
      <ConfirmDialog
        opened={confirming}
        title={t('rules.restoreTitle')}
        body={t('rules.restoreBody')}
        confirm={t('rules.restoreConfirm')}
        cancel={t('rules.cancel')}
        onConfirm={() => {
          setErrors(null);
          save.reset();
          restore.mutate(undefined, { onError: showError, onSuccess: (answer) => setRows(toRows(answer.rules)) });
        }}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
