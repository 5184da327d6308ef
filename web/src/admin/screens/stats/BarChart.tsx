// Vertical bars over time (hours or days), one group per slot and one bar per series, drawn as SVG at the width the
// page gives it. Every group keeps its label: turned upright when labels side by side would not fit, and on a narrow
// screen (a phone, 24 hours or 30 days) the drawing grows wider than the page and scrolls sideways in its own box.
import { useEffect, useRef } from 'react';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { ChartFrame, niceMax, type ChartData } from './ChartFrame';

const HEIGHT = 200;
const TOP = 8;
const LEFT = 48;
/** Room after the last bar, so its label is not cut at the edge. */
const RIGHT = 20;
/** Labels are 12 px: a rough width per character, to tell whether they fit side by side. */
const CHAR_WIDTH = 7;
/** The narrowest a group may be: an upright label's line height and a little air. */
const MIN_GROUP = 18;

export function BarChart(data: ChartData) {
  const { labels, series, format } = data;
  const { ref: sized, width } = useElementSize<HTMLDivElement>();
  const box = useRef<HTMLDivElement>(null);
  const ref = useMergedRef(sized, box);
  const longest = Math.max(1, ...labels.map((label) => label.length)) * CHAR_WIDTH;
  const available = labels.length > 0 ? Math.max(0, width - LEFT - RIGHT) / labels.length : 0;
  const upright = available < longest + 8;
  const groupWidth = upright ? Math.max(MIN_GROUP, available) : available;
  const drawWidth = Math.max(width, LEFT + RIGHT + groupWidth * labels.length);
  const scrolls = drawWidth > width + 1;
  const bottom = upright ? longest + 12 : 24;
  const height = HEIGHT + bottom - 24;
  const top = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  // Counts: a middle line only where it falls on a whole number.
  const ticks = top % 2 === 0 ? [0, top / 2, top] : [0, top];
  const barWidth = Math.max(1, (groupWidth * 0.8) / Math.max(1, series.length));
  const y = (value: number) => TOP + (height - TOP - bottom) * (1 - value / top);

  // A drawing wider than its box starts at its newest slot, on the right.
  useEffect(() => {
    if (scrolls && box.current) box.current.scrollLeft = box.current.scrollWidth;
  }, [scrolls, drawWidth]);

  return (
    <ChartFrame
      data={data}
      draw={(titleId) => (
        <div
          ref={ref}
          dir="ltr"
          className="admin-chart-scroll"
          // A box that scrolls must be reachable by keyboard (its arrow keys scroll it).
          {...(scrolls ? { tabIndex: 0, role: 'group', 'aria-labelledby': titleId } : {})}
        >
          {width > 0 && (
            <svg width={drawWidth} height={height} role="img" aria-labelledby={titleId}>
              {ticks.map((tick) => (
                <g key={tick}>
                  <line x1={LEFT} x2={drawWidth - RIGHT} y1={y(tick)} y2={y(tick)} className="admin-chart-grid" />
                  <text x={LEFT - 6} y={y(tick)} dy="0.32em" textAnchor="end" className="admin-chart-text">
                    {format(tick)}
                  </text>
                </g>
              ))}
              {labels.map((label, group) => {
                const centre = LEFT + group * groupWidth + groupWidth / 2;
                return (
                  <g key={label}>
                    {series.map((one, index) => {
                      const value = one.values[group] ?? 0;
                      return (
                        <rect
                          key={one.name}
                          x={LEFT + group * groupWidth + groupWidth * 0.1 + index * barWidth}
                          y={y(value)}
                          width={Math.max(1, barWidth - 1)}
                          height={Math.max(0, y(0) - y(value))}
                          className={`admin-chart-series-${index}`}
                        >
                          <title>{`${label}, ${one.name}: ${format(value)}`}</title>
                        </rect>
                      );
                    })}
                    {upright ? (
                      <text
                        transform={`translate(${centre} ${y(0) + 6}) rotate(-90)`}
                        dy="0.32em"
                        textAnchor="end"
                        className="admin-chart-text admin-chart-label"
                      >
                        {label}
                      </text>
                    ) : (
                      <text
                        x={centre}
                        y={height - 6}
                        textAnchor="middle"
                        className="admin-chart-text admin-chart-label"
                      >
                        {label}
                      </text>
                    )}
                  </g>
                );
              })}
            </svg>
          )}
        </div>
      )}
    />
  );
}
