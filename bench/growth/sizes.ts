/** One step of the growth benchmark: the store's size in events, and the days back from now its events are spread over. */
export interface StoreSize {
  events: number;
  /** The step's new events go on the days behind its predecessor's (`days` back in all); 30 unless `events@days`. */
  days: number;
}

const RETENTION_DAYS = 30;

/**
 * BENCH_GROWTH_SIZES: comma-separated sizes, growing, each `events` or `events@days`. A step whose predecessor filled
 * fewer days (an empty store fills none) fills the days behind them (`0,2700000@2,40000000`: two full days, then 28 more of the same size each);
 * otherwise its events are spread over all of its days (`0,10000000,40000000`).
 */
export function parseSizes(text: string): StoreSize[] {
  const sizes = text.split(',').map((item) => {
    const match = /^\s*(\d+)(?:@(\d+))?\s*$/.exec(item);
    const days = Number(match?.[2] ?? RETENTION_DAYS);
    if (match === null || days < 1 || days > RETENTION_DAYS) {
      throw new Error(`BENCH_GROWTH_SIZES must be comma-separated whole numbers of events, each optionally @days (1 to ${RETENTION_DAYS}): got "${item.trim()}" in "${text}"`);
    }
    return { events: Number(match[1]), days };
  });
  sizes.forEach((size, i) => {
    const before = sizes[i - 1];
    if (before === undefined) return;
    if (size.events <= before.events) throw new Error(`BENCH_GROWTH_SIZES must grow from one size to the next (the store is only added to): got "${text}"`);
    if (before.events > 0 && size.days < before.days) throw new Error(`BENCH_GROWTH_SIZES' days must not shrink from one size to the next: got "${text}"`);
  });
  return sizes;
}

/** The days back from now (nearest first) over which a step's new events are spread. */
export function daysOfStep(sizes: readonly StoreSize[], index: number): { from: number; to: number } {
  const size = sizes[index] as StoreSize;
  const before = sizes[index - 1];
  const filled = before !== undefined && before.events > 0 ? before.days : 0;
  return { from: filled < size.days ? filled : 0, to: size.days };
}

/**
 * The step the largest is also judged against, for the growth of the store alone: the first one stored over fewer
 * days (its days as full as the largest's when the sizes are chosen so; the verdicts print both); none when every
 * step spreads over the same days.
 */
export function sameDayBaseline(sizes: readonly StoreSize[]): number | undefined {
  const largest = sizes.at(-1) as StoreSize;
  const index = sizes.findIndex((s) => s.events > 0 && s.days < largest.days);
  return index === -1 ? undefined : index;
}
