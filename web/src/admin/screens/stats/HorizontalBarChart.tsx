// Horizontal bars for categories (kinds of request): each row its label above a bar and the bar's number, so labels
// of any length and language fit a phone.
import { useElementSize } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { ChartFrame, niceMax, type ChartData } from './ChartFrame';

const ROW = 44;
const LABEL = 16;
const BAR = 14;
/** Room after the longest bar for its number. */
const VALUE_ROOM = 64;

export function HorizontalBarChart(data: ChartData) {
  const { labels, series, format } = data;
  const { i18n } = useTranslation();
  const { ref, width } = useElementSize();
  const values = series[0]?.values ?? [];
  const top = niceMax(Math.max(0, ...values));
  const rtl = i18n.dir() === 'rtl';
  const length = (value: number) => (Math.max(0, width - VALUE_ROOM) * value) / top;

  return (
    <ChartFrame
      data={data}
      draw={(titleId) => (
        <div ref={ref}>
          {width > 0 && (
            <svg width={width} height={ROW * labels.length} role="img" aria-labelledby={titleId}>
              {labels.map((label, row) => {
                const value = values[row] ?? 0;
                const bar = length(value);
                const start = rtl ? width - bar : 0;
                return (
                  <g key={label} transform={`translate(0, ${row * ROW})`}>
                    <text x={rtl ? width : 0} y={LABEL - 4} textAnchor="start" className="admin-chart-text">
                      {label}
                    </text>
                    <rect
                      x={start}
                      y={LABEL}
                      width={Math.max(value > 0 ? 1 : 0, bar)}
                      height={BAR}
                      className="admin-chart-series-0"
                    >
                      <title>{`${label}: ${format(value)}`}</title>
                    </rect>
                    <text
                      x={rtl ? width - bar - 6 : bar + 6}
                      y={LABEL + BAR / 2}
                      dy="0.32em"
                      textAnchor="start"
                      className="admin-chart-text"
                    >
                      {format(value)}
                    </text>
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
