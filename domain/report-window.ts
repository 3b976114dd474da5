/**
 * Which days a statistics pull asks TikTok for. Conversions keep arriving for as long as the attribution window, so
 * every pull re-reads a lookback window and overwrites what it stored before (§7.2 "Data latency").
 */

const DAY_MS = 86_400_000;

/** Shortest lookback: TikTok's default click window is 28 days (spec §8 "Ad platform default windows"). */
export const MIN_LOOKBACK_DAYS = 28;

/**
 * Report dates are in the advertiser's time zone (§7.1). The earliest zone is UTC+14: "today" there is the latest
 * calendar day anywhere, so ending the window on it always includes the advertiser's today (a western advertiser's
 * future day simply has no rows).
 */
const LATEST_UTC_OFFSET_MS = 14 * 3_600_000;

export interface DateRange {
  /** `YYYY-MM-DD`, inclusive. */
  startDate: string;
  endDate: string;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function dayMs(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(ms)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(day)}`);
  return ms;
}

export function daysIn(range: DateRange): number {
  return Math.round((dayMs(range.endDate) - dayMs(range.startDate)) / DAY_MS) + 1;
}

/** The lookback window ending on the latest current calendar day: max(attribution window, 28) days long. */
export function lookbackWindow(now: Date, attributionWindowDays: number): DateRange {
  const days = Math.max(attributionWindowDays, MIN_LOOKBACK_DAYS);
  const end = dayMs(isoDay(now.getTime() + LATEST_UTC_OFFSET_MS));
  return { startDate: isoDay(end - (days - 1) * DAY_MS), endDate: isoDay(end) };
}

/** Consecutive ranges of at most `maxDays` covering `range`, oldest first (TikTok: ≤ 30 days by day, §7.1). */
export function splitRange(range: DateRange, maxDays: number): DateRange[] {
  if (!Number.isInteger(maxDays) || maxDays < 1) throw new RangeError(`maxDays must be a positive integer, got ${maxDays}`);
  const end = dayMs(range.endDate);
  const ranges: DateRange[] = [];
  for (let start = dayMs(range.startDate); start <= end; start += maxDays * DAY_MS) {
    ranges.push({ startDate: isoDay(start), endDate: isoDay(Math.min(start + (maxDays - 1) * DAY_MS, end)) });
  }
  return ranges;
}

/** Two halves of a range longer than a day (for 40067 "query too large"); a single day cannot be split. */
export function halveRange(range: DateRange): [DateRange, DateRange] | undefined {
  const days = daysIn(range);
  if (days < 2) return undefined;
  const firstEnd = dayMs(range.startDate) + (Math.ceil(days / 2) - 1) * DAY_MS;
  return [
    { startDate: range.startDate, endDate: isoDay(firstEnd) },
    { startDate: isoDay(firstEnd + DAY_MS), endDate: range.endDate },
  ];
}
