// The form of one operator: the fields its kind has (docs/transforms.md, Operators), each change handed up whole.
import { Checkbox, Group, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TRANSFORMS } from './strings';
import { PROTOCOLS, type Operator } from './operators';

type Protocol = (typeof PROTOCOLS)[number];

export function OperatorFields({ operator, onChange }: { operator: Operator; onChange: (next: Operator) => void }) {
  const { t } = useTranslation(TRANSFORMS);
  const options = (prefix: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`${prefix}.${value}`) }));
  // Patterns and replacements are code: left to right and monospace in the input, the label in the page's language.
  const code = {
    dir: 'ltr',
    autoComplete: 'off',
    spellCheck: false,
    styles: { input: { fontFamily: 'var(--mantine-font-family-monospace)' } },
  } as const;

  switch (operator.op) {
    case 'include':
    case 'exclude':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            {...code}
            label={t('fields.pattern')}
            description={t('fields.patternHint')}
            value={operator.pattern}
            onChange={(event) => onChange({ ...operator, pattern: event.currentTarget.value })}
          />
          <NativeSelect
            label={t('fields.field')}
            data={options('fields.fieldValues', ['name', 'server', 'type'])}
            value={operator.field ?? 'name'}
            onChange={(event) =>
              onChange({ ...operator, field: event.currentTarget.value as NonNullable<typeof operator.field> })
            }
          />
        </SimpleGrid>
      );
    case 'rename':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            {...code}
            label={t('fields.pattern')}
            description={t('fields.patternHint')}
            value={operator.pattern}
            onChange={(event) => onChange({ ...operator, pattern: event.currentTarget.value })}
          />
          <TextInput
            {...code}
            label={t('fields.replace')}
            value={operator.replace}
            onChange={(event) => onChange({ ...operator, replace: event.currentTarget.value })}
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
          onChange={(keep) => onChange({ ...operator, keep: keep as Protocol[] })}
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
          <NativeSelect
            label={t('fields.by')}
            data={options('fields.sortBy', ['name', 'type', 'server'])}
            value={operator.by ?? 'name'}
            onChange={(event) =>
              onChange({ ...operator, by: event.currentTarget.value as NonNullable<typeof operator.by> })
            }
          />
          <NativeSelect
            label={t('fields.order')}
            data={options('fields.orders', ['asc', 'desc'])}
            value={operator.order ?? 'asc'}
            onChange={(event) =>
              onChange({ ...operator, order: event.currentTarget.value as NonNullable<typeof operator.order> })
            }
          />
        </SimpleGrid>
      );
    case 'dedupe':
      return (
        <NativeSelect
          label={t('fields.by')}
          data={options('fields.dedupeBy', ['endpoint', 'name'])}
          value={operator.by ?? 'endpoint'}
          onChange={(event) =>
            onChange({ ...operator, by: event.currentTarget.value as NonNullable<typeof operator.by> })
          }
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
