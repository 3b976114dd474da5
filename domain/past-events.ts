import { TIKTOK_EVENT_HORIZON_DAYS } from './delivery-retry';

/** What bounds how far back a rule's past events may be sent. */
export interface PastEventBounds {
  attributionWindowDays: number;
  /** Raw events older than this have lost their message (retention), so they cannot be mapped again. */
  eventRetentionDays: number;
}

export interface PastEventLimit {
  days: number;
  /** Why no further back, to follow "at most N days: ". */
  because: string;
}

/**
 * How many days back a rule's stored events may become conversions: no further than the attribution window (TikTok
 * would not attribute them), TikTok's event-time horizon (reference tiktok-api.md §1.5: web events of the last 28
 * days; the pipeline ends older ones `expired`), and the raw events still kept.
 */
export function pastEventLimit({ attributionWindowDays, eventRetentionDays }: PastEventBounds): PastEventLimit {
  const limits: PastEventLimit[] = [
    { days: TIKTOK_EVENT_HORIZON_DAYS, because: `TikTok counts events of the last ${TIKTOK_EVENT_HORIZON_DAYS} days only` },
    { days: attributionWindowDays, because: `the workspace's attribution window is ${attributionWindowDays} days` },
    { days: eventRetentionDays, because: `raw events are kept ${eventRetentionDays} days (event retention)` },
  ];
  return limits.reduce((least, limit) => (limit.days < least.days ? limit : least));
}

/** What is wrong with `days`, naming the field; undefined when it may be sent. */
export function pastEventDaysProblem(days: number, bounds: PastEventBounds): string | undefined {
  if (!Number.isInteger(days) || days < 1) return `days must be a whole number of days, at least 1, not ${days}`;
  const limit = pastEventLimit(bounds);
  if (days > limit.days) return `days must be at most ${limit.days}, not ${days}: ${limit.because}`;
  return undefined;
}
