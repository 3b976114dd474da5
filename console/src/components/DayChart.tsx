import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  /** Which y axis: 'y' (left, default) or 'y2' (right). */
  scale?: 'y' | 'y2';
  bars?: boolean;
}

const DAY = 86_400;
const fromZero = (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, max > 0 ? max * 1.1 : 1];
const dayLabel = (seconds: number) => new Date(seconds * 1000).toISOString().slice(5, 10);

/**
 * A chart over days (uPlot); `days` are `YYYY-MM-DD`. With `stacked`, bar series are drawn on top of each other (the
 * legend still shows each series' own value).
 */
export function DayChart({ days, series, title, height = 240, rightAxisLabel, stacked = false }: { days: string[]; series: ChartSeries[]; title: string; height?: number; rightAxisLabel?: string; stacked?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null || days.length === 0) return undefined;
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const drawn = stacked ? stack(series) : series;
    // Stacked bars are drawn tallest first, so each shorter total covers the one below it.
    const order = stacked ? drawn.map((_, i) => drawn.length - 1 - i) : drawn.map((_, i) => i);
    const bars = uPlot.paths.bars?.({ size: [0.7, 48] });
    const plot = new uPlot(
      {
        title,
        width: Math.max(320, element.clientWidth),
        height,
        scales: {
          x: { time: false, range: () => [(x[0] as number) - DAY / 2, (x.at(-1) as number) + DAY / 2] },
          y: { range: fromZero },
          ...(rightAxisLabel ? { y2: { range: fromZero } } : {}),
        },
        axes: [
          { values: (_u, splits) => splits.map(dayLabel), incrs: [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY], space: 50 },
          { size: 60 },
          ...(rightAxisLabel ? [{ scale: 'y2', side: 1, label: rightAxisLabel, grid: { show: false }, size: 60 }] : []),
        ],
        series: [
          { label: 'Day', value: (_u, v) => (v === null ? '–' : dayLabel(v)) },
          ...order.map((i) => {
            const s = drawn[i] as ChartSeries;
            const own = series[i] as ChartSeries;
            return {
              label: s.label,
              stroke: s.color,
              fill: s.bars ? `${s.color}cc` : undefined,
              width: s.bars ? 1 : 2,
              scale: s.scale ?? 'y',
              paths: s.bars ? bars : undefined,
              points: { show: !s.bars && days.length < 40 },
              value: (_u: uPlot, _v: number | null, _si: number, index: number | null) => (index === null ? '–' : String(own.values[index] ?? '–')),
            };
          }),
        ],
      },
      [x, ...order.map((i) => (drawn[i] as ChartSeries).values)] as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, title, height, rightAxisLabel, stacked]);
  if (days.length === 0) return <p className="empty">Nothing to chart for this period.</p>;
  return <div ref={box} className="chart" role="img" aria-label={title} />;
}

/** Each series' values added to those before it. */
function stack(series: ChartSeries[]): ChartSeries[] {
  const totals = (series[0]?.values ?? []).map(() => 0);
  return series.map((s) => ({ ...s, bars: true, values: s.values.map((v, i) => (totals[i] = (totals[i] ?? 0) + (v ?? 0))) }));
}
