/**
 * RFC 3339 date-time with seconds and a zone (`Z` or `±hh:mm`), real calendar dates only: the same strings the ingest
 * API's earlier zod schema (`z.iso.datetime({ offset: true })`) accepted, so `"12345"` or `"2026-02-30T…"` are not.
 */
const DATE = '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8])))';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';
const ISO_TIMESTAMP = new RegExp(`^${DATE}T${TIME}$`);

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: the instants PostgreSQL and ISO-8601 strings both hold. */
export const EARLIEST_TIME_MS = -62_135_596_800_000;
export const LATEST_TIME_MS = 253_402_300_799_999;

export const NOT_A_TIMESTAMP = 'must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z';
export const OUTSIDE_STORABLE_YEARS = 'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z';

/** Milliseconds since the epoch of an ISO-8601 timestamp (fractions beyond milliseconds dropped); undefined if not one. */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value)) return undefined;
  return Date.parse(value);
}

export function isStorableTime(ms: number): boolean {
  return ms >= EARLIEST_TIME_MS && ms <= LATEST_TIME_MS;
}

/** The last timestamp found fine: a client sends the same one for every event of a millisecond. */
let lastStorable: string | undefined;

/** The problem with a timestamp field, or undefined when it is a storable ISO-8601 timestamp. */
export function timestampProblem(value: unknown): string | undefined {
  if (value === lastStorable) return undefined;
  const ms = parseTimestamp(value);
  if (ms === undefined) return NOT_A_TIMESTAMP;
  if (!isStorableTime(ms)) return OUTSIDE_STORABLE_YEARS;
  lastStorable = value as string;
  return undefined;
}

/**
 * Segment's clock-skew correction: the sender's clock is trusted for the interval between the event and `sentAt`,
 * the receiver's for the instant. Without `sentAt` the timestamp is taken as it is.
 */
export function correctClockSkew(timestampMs: number, sentAtMs: number | undefined, receivedAtMs: number): number {
  return sentAtMs === undefined ? timestampMs : receivedAtMs - (sentAtMs - timestampMs);
}

/** The problem with a timestamp once corrected by `sentAt`, or undefined when the corrected time is storable. */
export function correctedTimestampProblem(timestampMs: number, sentAtMs: number | undefined, receivedAtMs: number): string | undefined {
  const corrected = correctClockSkew(timestampMs, sentAtMs, receivedAtMs);
  if (isStorableTime(corrected)) return undefined;
  const when = Number.isFinite(corrected) && Math.abs(corrected) <= 8.64e15 ? new Date(corrected).toISOString() : 'out of range';
  return `${OUTSIDE_STORABLE_YEARS} after correcting for the sender's clock with sentAt (it becomes ${when})`;
}
