import { TIKTOK_LIMITS } from './config';
import type { TikTokEvent, TikTokTrackRequest } from '../../domain/tiktok-wire';

/** The request-level fields of `event/track`: everything but `data`. */
export type TrackEnvelope = Omit<TikTokTrackRequest, 'data'>;

export interface TrackBatch<T> {
  envelope: TrackEnvelope;
  /** What each event belongs to, in the order of `body.data`. */
  items: T[];
  body: TikTokTrackRequest;
}

function envelopeOf({ data: _data, ...envelope }: TikTokTrackRequest): TrackEnvelope {
  return envelope;
}

/**
 * Puts single-event requests together into as few `event/track` requests as TikTok allows: only events with the same
 * envelope (event source, pixel or app ID, test code) share a request, at most 1,000 per request (§1.1). Test events
 * go one per request, as RudderStack sends them, so each shows on its own in TikTok's Test Events view.
 */
export function batchTrackRequests<T>(singles: readonly { item: T; request: TikTokTrackRequest }[]): TrackBatch<T>[] {
  const byEnvelope = new Map<string, { envelope: TrackEnvelope; items: T[]; events: TikTokEvent[] }>();
  const batches: TrackBatch<T>[] = [];
  for (const { item, request } of singles) {
    const envelope = envelopeOf(request);
    if (envelope.test_event_code !== undefined) {
      batches.push({ envelope, items: [item], body: request });
      continue;
    }
    const key = JSON.stringify([envelope.event_source, envelope.event_source_id]);
    const group = byEnvelope.get(key) ?? { envelope, items: [], events: [] };
    byEnvelope.set(key, group);
    group.items.push(item);
    group.events.push(...request.data);
  }
  for (const { envelope, items, events } of byEnvelope.values()) {
    for (let start = 0; start < events.length; start += TIKTOK_LIMITS.maxEventsPerTrackRequest) {
      const end = start + TIKTOK_LIMITS.maxEventsPerTrackRequest;
      batches.push({ envelope, items: items.slice(start, end), body: { ...envelope, data: events.slice(start, end) } });
    }
  }
  return batches;
}
