// The form of one operator: the fields its kind has (docs/transforms.md, Operators), each change handed up whole.
import { Checkbox, Group, NativeSelect, NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TRANSFORMS } from './strings';
import { PROTOCOLS, type Operator } from './operators';

type Protocol = (typeof PROTOCOLS)[number];

export function OperatorFields({ operator, onChange }: { operator: Operator; onChange: (next: Operator) => void }) {
  const { t } = useTranslation(TRANSFORMS);
  const options = (prefix: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`${prefix}.${value}`) }));
  const code = { dir: 'ltr', ff: 'monospace', autoComplete: 'off', spellCheck: false } as const;

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
        <NumberInput
          label={t('fields.count')}
          min={1}
          max={1_000_000}
          allowDecimal={false}
          allowNegative={false}
          value={operator.count}
          onChange={(count) => onChange({ ...operator, count: typeof count === 'number' ? count : 0 })}
        />
      );
    case 'flag':
    case 'drop_info':
      return null;
  }
}
