const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` as a UTC midnight, or undefined when it is not a real calendar date. */
export function parseDay(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? undefined : ms;
}

/** Every day from start to end, both inclusive, as `YYYY-MM-DD`. */
export function daysBetween(startMs: number, endMs: number): string[] {
  const days: string[] = [];
  for (let ms = startMs; ms <= endMs; ms += DAY_MS) days.push(new Date(ms).toISOString().slice(0, 10));
  return days;
}

export function dayCount(startMs: number, endMs: number): number {
  return Math.round((endMs - startMs) / DAY_MS) + 1;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (`YYYY-MM-DD`) of `date` in the advertiser's IANA time zone: TikTok reports in the advertiser's days. */
export function dayIn(date: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(date);
}
