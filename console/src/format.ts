/** A moment in this browser's time zone, the zone named ("Nov 28, 2026, 01:41 GMT+1"): people compare it with other clocks. */
const MOMENT = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
export const dateTime = (iso: string | null | undefined) => (iso ? MOMENT.format(new Date(iso)) : '–');
export const number = (n: number | null | undefined) => (n === null || n === undefined ? '–' : n.toLocaleString());
export const percent = (share: number | null | undefined) => (share === null || share === undefined ? '–' : `${Math.round(share * 100)}%`);
export const money = (value: string | number | null | undefined, currency?: string | null) =>
  value === null || value === undefined ? '–' : `${Number(value).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ''}`;

/** `YYYY-MM-DD` of a date in a time zone. */
export function dayIn(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = from; day <= to && out.length < 400; day = addDays(day, 1)) out.push(day);
  return out;
}
