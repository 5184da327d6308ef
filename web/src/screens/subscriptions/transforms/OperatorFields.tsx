// The form of one operator: the fields its kind has (docs/transforms.md, Operators), each change handed up whole.
import { Checkbox, Group, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PROTOCOLS } from '../../../api/values';
import { TRANSFORMS } from './strings';
import type { Operator } from './operators';

export function OperatorFields({ operator, onChange }: { operator: Operator; onChange: (next: Operator) => void }) {
  const { t } = useTranslation(TRANSFORMS);

  switch (operator.op) {
    case 'include':
    case 'exclude':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PatternInput value={operator.pattern} onChange={(pattern) => onChange({ ...operator, pattern })} />
          <Choice
            label={t('fields.field')}
            labels="fields.fieldValues"
            values={['name', 'server', 'type']}
            value={operator.field ?? 'name'}
            onChange={(field) => onChange({ ...operator, field })}
          />
        </SimpleGrid>
      );
    case 'rename':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PatternInput value={operator.pattern} onChange={(pattern) => onChange({ ...operator, pattern })} />
          <CodeInput
            label={t('fields.replace')}
            value={operator.replace}
            onChange={(replace) => onChange({ ...operator, replace })}
          />
        </SimpleGrid>
      );
    case 'prefix':
    case 'suffix':
      return (
        <TextInput
          label={t('fields.text')}
          maxLength={64}
          value={operator.text}
          onChange={(event) => onChange({ ...operator, text: event.currentTarget.value })}
        />
      );
    case 'types':
      return (
        <Checkbox.Group
          label={t('fields.keep')}
          value={operator.keep}
          onChange={(keep) => onChange({ ...operator, keep: keep as typeof operator.keep })}
        >
          <Group gap="sm" mt={4} dir="ltr">
            {PROTOCOLS.map((protocol) => (
              <Checkbox key={protocol} value={protocol} label={protocol} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'sort':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Choice
            label={t('fields.by')}
            labels="fields.sortBy"
            values={['name', 'type', 'server']}
            value={operator.by ?? 'name'}
            onChange={(by) => onChange({ ...operator, by })}
          />
          <Choice
            label={t('fields.order')}
            labels="fields.orders"
            values={['asc', 'desc']}
            value={operator.order ?? 'asc'}
            onChange={(order) => onChange({ ...operator, order })}
          />
        </SimpleGrid>
      );
    case 'dedupe':
      return (
        <Choice
          label={t('fields.by')}
          labels="fields.dedupeBy"
          values={['endpoint', 'name']}
          value={operator.by ?? 'endpoint'}
          onChange={(by) => onChange({ ...operator, by })}
        />
      );
    case 'limit':
      return (
        <TextInput
          type="number"
          inputMode="numeric"
          label={t('fields.count')}
          min={1}
          max={1_000_000}
          step={1}
          value={String(operator.count)}
          onChange={(event) => onChange({ ...operator, count: Number(event.currentTarget.value) })}
        />
      );
    case 'flag':
    case 'drop_info':
      return null;
  }
}

interface InputProps {
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
}

/** Patterns and replacements are code: left to right and monospace in the input, the label in the page's language. */
function CodeInput({ label, description, value, onChange }: InputProps) {
  return (
    <TextInput
      dir="ltr"
      autoComplete="off"
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      label={label}
      description={description}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** The regular expression of include, exclude and rename. */
function PatternInput({ value, onChange }: Pick<InputProps, 'value' | 'onChange'>) {
  const { t } = useTranslation(TRANSFORMS);
  return (
    <CodeInput label={t('fields.pattern')} description={t('fields.patternHint')} value={value} onChange={onChange} />
  );
}

interface ChoiceProps<Value extends string> {
  label: string;
  /** The catalog's group naming each value (`fields.sortBy` has `name`, `type`, `server`). */
  labels: string;
  values: readonly Value[];
  value: Value;
  onChange: (value: Value) => void;
}

/** One of a few values, each named by the catalog. */
function Choice<Value extends string>({ label, labels, values, value, onChange }: ChoiceProps<Value>) {
  const { t } = useTranslation(TRANSFORMS);
  return (
    <NativeSelect
      label={label}
      data={values.map((one) => ({ value: one, label: t(`${labels}.${one}`) }))}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value as Value)}
    />
  );
}
