import { lazy, Suspense, type ComponentProps } from 'react';

export type { ChartSeries } from './DayChart';

// uPlot loads after the page has shown its figures: it is not part of any page's first load.
const DayChart = lazy(() => import('./DayChart').then((module) => ({ default: module.DayChart })));

/** A chart over days; a box of the chart's height holds its place while its code loads. */
export function Chart(props: ComponentProps<typeof DayChart>) {
  return (
    <Suspense fallback={<div className="chart-loading" style={{ minHeight: props.height ?? 240 }} aria-busy="true" />}>
      <DayChart {...props} />
    </Suspense>
  );
}
