// One operator of the chain: its kind and what it does, its fields, what the preview says it did, the API's refusal
// when it cannot run, and buttons to move it up or down and to remove it.
import { ActionIcon, Alert, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { TRANSFORMS } from './strings';
import { OperatorFields } from './OperatorFields';
import type { Operator } from './operators';

export interface OperatorCardProps {
  /** Prefix of the buttons' ids, so the editor can give the focus back after a move or a removal. */
  buttonId: string;
  operator: Operator;
  position: number;
  isFirst: boolean;
  isLast: boolean;
  step: { in: number; out: number } | undefined;
  error: string | undefined;
  onChange: (next: Operator) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

export function OperatorCard(props: OperatorCardProps) {
  const { t, i18n } = useTranslation(TRANSFORMS);
  const { operator, position, step, error } = props;
  const titleId = useId();
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const place = { position: number(position) };

  return (
    <Paper component="li" withBorder p="sm" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Title order={4} size="h5" id={titleId}>
              {t('position', place)}: {t(`ops.${operator.op}.label`)}
            </Title>
            <Text size="sm" c="dimmed">
              {t(`ops.${operator.op}.hint`)}
            </Text>
          </div>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              id={`${props.buttonId}-up`}
              variant="default"
              disabled={props.isFirst}
              aria-label={t('moveUp', place)}
              onClick={() => props.onMove(-1)}
            >
              <span aria-hidden>↑</span>
            </ActionIcon>
            <ActionIcon
              id={`${props.buttonId}-down`}
              variant="default"
              disabled={props.isLast}
              aria-label={t('moveDown', place)}
              onClick={() => props.onMove(1)}
            >
              <span aria-hidden>↓</span>
            </ActionIcon>
            <ActionIcon
              id={`${props.buttonId}-remove`}
              variant="default"
              color="red"
              aria-label={t('remove', place)}
              onClick={props.onRemove}
            >
              <span aria-hidden>✕</span>
            </ActionIcon>
          </Group>
        </Group>
        <OperatorFields operator={operator} onChange={props.onChange} />
        {step && (
          <Badge variant="light" color={step.out < step.in ? 'blue' : 'gray'} tt="none" size="lg" fw={500}>
            {t('counts', { in: number(step.in), out: number(step.out) })}
          </Badge>
        )}
        {error && (
          <Alert color="red" title={t('invalid')}>
            <Text size="sm" dir="ltr" style={{ overflowWrap: 'anywhere' }}>
              {error}
            </Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
