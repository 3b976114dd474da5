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

/** The fake's advertisers all report in UTC. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}
