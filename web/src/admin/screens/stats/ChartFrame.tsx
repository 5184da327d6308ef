// What every statistics chart has around its drawing: a caption naming it, a legend when it has several series, and
// its numbers as a table behind a toggle, for screen readers and anyone who prefers numbers to bars.
import { useId, useState, type ReactNode } from 'react';
import { Button, Group, Stack, Table, Text } from '@mantine/core';

export interface Series {
  name: string;
  values: number[];
}

export interface ChartData {
  title: string;
  /** One per group of bars, e.g. a day. */
  labels: string[];
  series: Series[];
  format: (value: number) => string;
  /** The first column's header of the table, e.g. "Day". */
  labelHeader: string;
  showTable: string;
  hideTable: string;
}

/** `draw` gets the caption's id: the drawing's accessible name. */
export function ChartFrame({ data, draw }: { data: ChartData; draw: (titleId: string) => ReactNode }) {
  const { title, labels, series, format, labelHeader, showTable, hideTable } = data;
  const [tableShown, setTableShown] = useState(false);
  const id = useId();
  return (
    <Stack component="figure" gap="xs" m={0}>
      <Text component="figcaption" fw={600} id={`${id}-title`}>
        {title}
      </Text>
      {draw(`${id}-title`)}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="md" wrap="wrap">
          {series.length > 1 &&
            series.map((one, index) => (
              <Group key={one.name} gap={6} wrap="nowrap">
                <svg width={12} height={12} aria-hidden="true">
                  <rect width={12} height={12} className={`admin-chart-series-${index}`} />
                </svg>
                <Text size="sm">{one.name}</Text>
              </Group>
            ))}
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={tableShown}
          aria-controls={`${id}-table`}
          onClick={() => setTableShown((shown) => !shown)}
        >
          {tableShown ? hideTable : showTable}
        </Button>
      </Group>
      <div id={`${id}-table`} hidden={!tableShown}>
        {tableShown && (
          <Table.ScrollContainer minWidth={0}>
            <Table striped withTableBorder>
              <Table.Caption>{title}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{labelHeader}</Table.Th>
                  {series.map((one) => (
                    <Table.Th key={one.name} scope="col">
                      {one.name}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {labels.map((label, group) => (
                  <Table.Tr key={label}>
                    <Table.Th scope="row" fw={400}>
                      {label}
                    </Table.Th>
                    {series.map((one) => (
                      <Table.Td key={one.name}>{format(one.values[group] ?? 0)}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </div>
    </Stack>
  );
}

/** A round upper end for an axis of counts: 1, 2 or 5 times a power of ten, at least the largest value. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}
