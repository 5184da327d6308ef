// A subscription's transform chain: add, edit, reorder and remove operators with a live preview of what the link would
// serve, then save the chain (PUT .../transforms) or discard the changes (docs/transforms.md, docs/dashboard.md).
import { useState } from 'react';
import { Alert, Badge, Button, Grid, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue, useId, useWindowEvent } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useNumbers } from '../../../i18n/numbers';
import type { Subscription } from '../queries';
import { TRANSFORMS } from './strings';
import { ChainError, usePreview, useSaveTransforms } from './queries';
import { KINDS, MAX_OPERATORS, RECIPES, newOperator, sameChain, type Operator, type OperatorKind } from './operators';
import { OperatorCard } from './OperatorCard';
import { PreviewPanel } from './PreviewPanel';
import { useSeen } from './useSeen';

/** An operator with a key that follows it when it moves. */
interface Item {
  id: number;
  operator: Operator;
}

let nextId = 0;
const toItems = (chain: readonly Operator[]): Item[] => chain.map((operator) => ({ id: nextId++, operator }));
const buttonId = (id: number) => `transform-operator-${id}`;
/** After React has moved or removed a card, the focus goes to a button that still makes sense. */
const focusSoon = (elementId: string) => requestAnimationFrame(() => document.getElementById(elementId)?.focus());

export function TransformsEditor({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation(TRANSFORMS);
  const { number } = useNumbers();
  const titleId = useId();
  const addId = useId();
  const [items, setItems] = useState(() => toItems(subscription.transforms));
  const [base, setBase] = useState(subscription.transforms);
  const [kind, setKind] = useState<OperatorKind>('include');
  const save = useSaveTransforms(subscription.token);
  const chain = items.map((item) => item.operator);

  // The saved chain changed elsewhere (another tab, a refetch): follow it unless there are edits to keep.
  if (base !== subscription.transforms) {
    if (sameChain(chain, base)) setItems(toItems(subscription.transforms));
    setBase(subscription.transforms);
  }
  const dirty = !sameChain(chain, subscription.transforms);

  const [previewed] = useDebouncedValue(items, 400);
  // The preview runs the chain on the server: it starts once the editor has been on screen, then follows every edit.
  const [shown, watchShown] = useSeen<HTMLElement>();
  const preview = usePreview(subscription.token, previewed, shown);
  // Leaving the page (reload, closing the tab) with edits not saved asks first.
  useWindowEvent('beforeunload', (event) => {
    if (dirty) event.preventDefault();
  });

  const update = (next: Item[]) => {
    save.reset();
    setItems(next);
  };
  const add = (operators: readonly Operator[]) =>
    update([...items, ...toItems(operators.map((operator) => structuredClone(operator)))]);
  const move = (index: number, by: -1 | 1) => {
    const next = [...items];
    const [moved] = next.splice(index, 1) as [Item];
    next.splice(index + by, 0, moved);
    update(next);
    // The same button again, unless the operator reached the end it was moving to, where that button is disabled.
    const atEnd = by < 0 ? index + by === 0 : index + by === next.length - 1;
    focusSoon(`${buttonId(moved.id)}-${by < 0 !== atEnd ? 'up' : 'down'}`);
  };
  const remove = (index: number) => {
    const next = items.filter((_, at) => at !== index);
    update(next);
    const neighbour = next[Math.min(index, next.length - 1)];
    focusSoon(neighbour ? `${buttonId(neighbour.id)}-remove` : addId);
  };

  // A refused operator is shown at that operator (the refusal names its position in the chain that was sent); the
  // preview panel says why it has nothing to show.
  const errors = new Map<number, string>();
  const atOperator = (error: Error | null, sent: Item[]): boolean => {
    const target = error instanceof ChainError && error.index !== null ? sent[error.index] : undefined;
    if (target && error) errors.set(target.id, error.message);
    return target !== undefined;
  };
  atOperator(preview.error, previewed);
  const saveFailure = save.error && !atOperator(save.error, items) ? save.error.message : undefined;
  const chainRefused = preview.error instanceof ChainError && preview.error.code === 'invalid_transform';
  const failure = preview.error
    ? t(chainRefused ? 'chainInvalid' : 'previewFailed', { message: preview.error.message })
    : undefined;
  const steps = new Map<number, { in: number; out: number }>();
  if (!preview.error) {
    for (const step of preview.data?.steps ?? []) {
      const id = preview.data?.ids[step.index];
      if (id !== undefined) steps.set(id, step);
    }
  }

  const full = items.length >= MAX_OPERATORS;
  return (
    <Stack component="section" gap="sm" aria-labelledby={titleId} ref={watchShown}>
      <Title order={3} size="h4" id={titleId}>
        {t('title')}
      </Title>
      <Text size="sm">{t('intro')}</Text>
      <Group gap="xs">
        {dirty && (
          <Badge color="orange" variant="dot" tt="none" size="lg" fw={500}>
            {t('unsaved')}
          </Badge>
        )}
        <Button
          disabled={!dirty}
          loading={save.isPending}
          onClick={() =>
            save.mutate(chain, {
              onSuccess: (saved) => {
                setItems(toItems(saved.transforms));
                setBase(saved.transforms);
              },
            })
          }
        >
          {t('save')}
        </Button>
        <Button variant="default" disabled={!dirty} onClick={() => update(toItems(subscription.transforms))}>
          {t('discard')}
        </Button>
        <Text size="sm" role="status">
          {save.isSuccess && !dirty ? t('saved') : ''}
        </Text>
      </Group>
      {saveFailure && (
        <Alert color="red" role="alert">
          {t('saveFailed', { message: saveFailure })}
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="sm">
            {items.length === 0 && <Text c="dimmed">{t('empty')}</Text>}
            <Stack component="ol" gap="sm" p={0} m={0} aria-label={t('chain')} style={{ listStyle: 'none' }}>
              {items.map((item, index) => (
                <OperatorCard
                  key={item.id}
                  buttonId={buttonId(item.id)}
                  operator={item.operator}
                  position={index + 1}
                  isFirst={index === 0}
                  isLast={index === items.length - 1}
                  step={steps.get(item.id)}
                  error={errors.get(item.id)}
                  onChange={(operator) =>
                    update(items.map((other) => (other.id === item.id ? { id: item.id, operator } : other)))
                  }
                  onMove={(by) => move(index, by)}
                  onRemove={() => remove(index)}
                />
              ))}
            </Stack>
            <Group gap="xs" align="flex-end">
              <NativeSelect
                id={addId}
                label={t('addKind')}
                data={KINDS.map((value) => ({ value, label: t(`ops.${value}.label`) }))}
                value={kind}
                onChange={(event) => setKind(event.currentTarget.value as OperatorKind)}
              />
              <Button disabled={full} onClick={() => add([newOperator(kind)])}>
                {t('add')}
              </Button>
            </Group>
            <Group gap="xs" role="group" aria-label={t('recipes')}>
              <Text size="sm">{t('recipes')}:</Text>
              {Object.entries(RECIPES).map(([name, operators]) => (
                <Button
                  key={name}
                  size="xs"
                  variant="light"
                  disabled={items.length + operators.length > MAX_OPERATORS}
                  onClick={() => add(operators)}
                >
                  {t(`recipe.${name}`)}
                </Button>
              ))}
            </Group>
            {full && <Text size="sm">{t('full', { max: number(MAX_OPERATORS) })}</Text>}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PreviewPanel
            served={preview.data?.served}
            body={preview.data?.body}
            updating={preview.isFetching || previewed !== items}
            failure={failure}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
