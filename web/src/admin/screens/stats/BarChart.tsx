// A small bar chart drawn as SVG at the width it is given, with grouped series, a legend, and its numbers as a table
// for screen readers and anyone who prefers them (a toggle), so the screen needs no chart library.
import { useId, useState } from 'react';
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';

export interface Series {
  name: string;
  values: number[];
}

export interface BarChartProps {
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

const HEIGHT = 200;
const TOP = 8;
const BOTTOM = 24;
const LEFT = 48;
/** Leave at least this many pixels between two labels under the bars; the others are left out. */
const LABEL_SPACING = 56;

/** A round upper end for the axis: 1, 2 or 5 times a power of ten, at least the largest value. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

export function BarChart({ title, labels, series, format, labelHeader, showTable, hideTable }: BarChartProps) {
  const { ref, width } = useElementSize();
  const [tableShown, setTableShown] = useState(false);
  const id = useId();
  const top = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const plotWidth = Math.max(0, width - LEFT);
  const groupWidth = labels.length > 0 ? plotWidth / labels.length : 0;
  const barWidth = Math.max(1, (groupWidth * 0.8) / Math.max(1, series.length));
  const every = Math.max(1, Math.ceil(LABEL_SPACING / Math.max(1, groupWidth)));
  const y = (value: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / top);

  return (
    <Stack component="figure" gap="xs" m={0} className="admin-chart">
      <Text component="figcaption" fw={600} id={`${id}-title`}>
        {title}
      </Text>
      <div ref={ref} dir="ltr">
        {width > 0 && (
          <svg width={width} height={HEIGHT} role="img" aria-labelledby={`${id}-title`}>
            {[0, top / 2, top].map((tick) => (
              <g key={tick}>
                <line x1={LEFT} x2={width} y1={y(tick)} y2={y(tick)} className="admin-chart-grid" />
                <text x={LEFT - 6} y={y(tick)} dy="0.32em" textAnchor="end" className="admin-chart-text">
                  {format(tick)}
                </text>
              </g>
            ))}
            {labels.map((label, group) => (
              <g key={label}>
                {series.map((one, index) => {
                  const value = one.values[group] ?? 0;
                  const x = LEFT + group * groupWidth + groupWidth * 0.1 + index * barWidth;
                  return (
                    <rect
                      key={one.name}
                      x={x}
                      y={y(value)}
                      width={Math.max(1, barWidth - 1)}
                      height={Math.max(0, y(0) - y(value))}
                      className={`admin-chart-series-${index}`}
                    >
                      <title>{`${label}, ${one.name}: ${format(value)}`}</title>
                    </rect>
                  );
                })}
                {group % every === 0 && (
                  <text
                    x={LEFT + group * groupWidth + groupWidth / 2}
                    y={HEIGHT - 6}
                    textAnchor="middle"
                    className="admin-chart-text"
                  >
                    {label}
                  </text>
                )}
              </g>
            ))}
          </svg>
        )}
      </div>
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
