// Vertical bars over time (hours or days), one group per slot and one bar per series, drawn as SVG at the width the
// page gives it; labels under the bars are thinned out so they never overlap.
import { useElementSize } from '@mantine/hooks';
import { ChartFrame, niceMax, type ChartData } from './ChartFrame';

const HEIGHT = 200;
const TOP = 8;
const BOTTOM = 24;
const LEFT = 48;
/** Room after the last bar, so its label is not cut at the edge. */
const RIGHT = 20;
/** Leave at least this many pixels between two labels under the bars; the others are left out. */
const LABEL_SPACING = 64;

export function BarChart(data: ChartData) {
  const { labels, series, format } = data;
  const { ref, width } = useElementSize();
  const top = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  // Counts: a middle line only where it falls on a whole number.
  const ticks = top % 2 === 0 ? [0, top / 2, top] : [0, top];
  const groupWidth = labels.length > 0 ? Math.max(0, width - LEFT - RIGHT) / labels.length : 0;
  const barWidth = Math.max(1, (groupWidth * 0.8) / Math.max(1, series.length));
  const every = Math.max(1, Math.ceil(LABEL_SPACING / Math.max(1, groupWidth)));
  const y = (value: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / top);

  return (
    <ChartFrame
      data={data}
      draw={(titleId) => (
        <div ref={ref} dir="ltr">
          {width > 0 && (
            <svg width={width} height={HEIGHT} role="img" aria-labelledby={titleId}>
              {ticks.map((tick) => (
                <g key={tick}>
                  <line x1={LEFT} x2={width - RIGHT} y1={y(tick)} y2={y(tick)} className="admin-chart-grid" />
                  <text x={LEFT - 6} y={y(tick)} dy="0.32em" textAnchor="end" className="admin-chart-text">
                    {format(tick)}
                  </text>
                </g>
              ))}
              {labels.map((label, group) => (
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
                  {(labels.length - 1 - group) % every === 0 && (
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
      )}
    />
  );
}
