// One format rule's fields as a card, with its errors from a refused list, and buttons to move or remove it.
import { Button, Checkbox, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import { FORMATS } from './strings';
import type { Rule } from './queries';

const MATCHES: Rule['match'][] = ['contains', 'prefix', 'equals', 'regex'];
const RESULTS: Rule['result'][] = ['mihomo', 'sing-box', 'xray', 'base64', 'plain', 'sip008', 'page', 'block'];

interface Props {
  headingId: string;
  rule: Rule;
  index: number;
  last: boolean;
  /** The API's message for one of this rule's fields, if it refused the list. */
  error: (field: keyof Rule) => string | undefined;
  onChange: (patch: Partial<Rule>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

export function RuleCard({ headingId, rule, index, last, error, onChange, onMove, onRemove }: Props) {
  const { t } = useTranslation(FORMATS);
  const { id } = useNumbers();
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={5} id={headingId}>
          {t('rules.rule', { number: id(index + 1) })}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
          <TextInput
            label={t('rules.id')}
            value={rule.id}
            dir="ltr"
            error={error('id')}
            onChange={(e) => onChange({ id: e.currentTarget.value })}
          />
          <TextInput
            label={t('rules.header')}
            value={rule.header}
            dir="ltr"
            error={error('header')}
            onChange={(e) => onChange({ header: e.currentTarget.value })}
          />
          <NativeSelect
            label={t('rules.match')}
            value={rule.match}
            data={MATCHES.map((m) => ({ value: m, label: t(`rules.matches.${m}`) }))}
            onChange={(e) => onChange({ match: e.currentTarget.value as Rule['match'] })}
          />
        </SimpleGrid>
        <TextInput
          label={t('rules.value')}
          value={rule.value}
          dir="ltr"
          ff="monospace"
          error={error('value')}
          onChange={(e) => onChange({ value: e.currentTarget.value })}
        />
        <Group gap="md" align="flex-end">
          <NativeSelect
            label={t('rules.result')}
            value={rule.result === 'clash' ? 'mihomo' : rule.result}
            data={RESULTS.map((r) => ({ value: r, label: r === 'block' || r === 'page' ? t(`rules.${r}`) : r }))}
            error={error('result')}
            onChange={(e) => onChange({ result: e.currentTarget.value as Rule['result'] })}
          />
          <Checkbox
            label={t('rules.enabled')}
            checked={rule.enabled}
            onChange={(e) => onChange({ enabled: e.currentTarget.checked })}
          />
          <Checkbox
            label={t('rules.caseSensitive')}
            checked={rule.case_sensitive}
            onChange={(e) => onChange({ case_sensitive: e.currentTarget.checked })}
          />
        </Group>
        <Group gap="xs">
          <Button id={`${headingId}-up`} size="xs" variant="default" disabled={index === 0} onClick={() => onMove(-1)}>
            {t('rules.up')}
          </Button>
          <Button id={`${headingId}-down`} size="xs" variant="default" disabled={last} onClick={() => onMove(1)}>
            {t('rules.down')}
          </Button>
          <Button size="xs" variant="default" onClick={onRemove}>
            {t('rules.remove')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
