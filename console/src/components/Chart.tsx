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

/** A time chart over days (uPlot); `days` are `YYYY-MM-DD`. */
export function Chart({ days, series, title, height = 240, rightAxisLabel }: { days: string[]; series: ChartSeries[]; title: string; height?: number; rightAxisLabel?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null || days.length === 0) return undefined;
    const x = days.map((day) => Date.parse(`${day}T12:00:00Z`) / 1000);
    const bars = uPlot.paths.bars?.({ size: [0.6, 40] });
    const plot = new uPlot(
      {
        title,
        width: Math.max(320, element.clientWidth),
        height,
        scales: { x: { time: true }, y: { auto: true }, ...(rightAxisLabel ? { y2: { auto: true } } : {}) },
        axes: [{}, { size: 60 }, ...(rightAxisLabel ? [{ scale: 'y2', side: 1, label: rightAxisLabel, grid: { show: false }, size: 60 }] : [])],
        series: [
          {},
          ...series.map((s) => ({ label: s.label, stroke: s.color, fill: s.bars ? `${s.color}cc` : undefined, width: 2, scale: s.scale ?? 'y', paths: s.bars ? bars : undefined, points: { show: days.length < 40 } })),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, title, height, rightAxisLabel]);
  if (days.length === 0) return <p className="empty">Nothing to chart for this period.</p>;
  return <div ref={box} className="chart" role="img" aria-label={title} />;
}
