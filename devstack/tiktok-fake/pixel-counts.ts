import type { Arrival } from './received-log';

/** One event of a pixel (its name and event_id): how often each channel sent it, and how often TikTok counts it. */
export interface CountedEvent {
  event: string;
  /** Null for arrivals without an event_id: TikTok counts each of them. */
  eventId: string | null;
  pixel: number;
  eventsApi: number;
  counted: number;
}

/** `GET /_fake/pixels/:pixelCode/counts`: live events only (test events stay in the Test Events view). */
export interface FakePixelCounts {
  pixelCode: string;
  /** In the order of their first arrival. */
  events: CountedEvent[];
  total: { pixel: number; eventsApi: number; counted: number };
}

/** What TikTok would count for one pixel, from the dedup verdict each arrival got when it came in. */
export function countForPixel(arrivals: readonly Arrival[], pixelCode: string): FakePixelCounts {
  const rows = new Map<string, CountedEvent>();
  for (const { channel, received } of arrivals) {
    const ofPixel = channel === 'eventsApi' ? received.eventSourceId === pixelCode && !received.test : received.pixelCode === pixelCode;
    if (!ofPixel || received.event === undefined) continue;
    const eventId = received.eventId ?? null;
    const key = JSON.stringify([received.event, eventId]);
    const row = rows.get(key) ?? { event: received.event, eventId, pixel: 0, eventsApi: 0, counted: 0 };
    row[channel] += 1;
    if (!received.deduplicated) row.counted += 1;
    rows.set(key, row);
  }
  const events = [...rows.values()];
  const sum = (field: 'pixel' | 'eventsApi' | 'counted') => events.reduce((total, row) => total + row[field], 0);
  return { pixelCode, events, total: { pixel: sum('pixel'), eventsApi: sum('eventsApi'), counted: sum('counted') } };
}
