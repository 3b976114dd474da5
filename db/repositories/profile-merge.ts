import type { AdClickIds } from '../../domain/ad-click';
import type { DeviceDetails, VisitorSighting } from '../../domain/observation';

export interface MergedVisitor {
  anonymousId: string;
  ttclid?: string;
  ttclidCapturedAt?: Date;
  ttp?: string;
  ttpSeenAt?: Date;
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** The latest page view's device details. */
  device?: DeviceDetails;
  deviceSeenAt?: Date;
}

export interface MergedClick {
  anonymousId: string;
  ttclid: string;
  capturedAt: Date;
  pageUrl?: string;
  ad?: AdClickIds;
}

/**
 * One row per visitor, as a single upsert may touch a row only once. Sorted by key so that concurrent batches lock
 * visitor rows in the same order and cannot deadlock.
 */
export function mergeSightings(sightings: readonly VisitorSighting[]): MergedVisitor[] {
  const merged = new Map<string, MergedVisitor>();
  for (const s of sightings) {
    const v = merged.get(s.anonymousId) ?? { anonymousId: s.anonymousId, firstSeenAt: s.seenAt, lastSeenAt: s.seenAt };
    if (s.seenAt < v.firstSeenAt) v.firstSeenAt = s.seenAt;
    if (s.seenAt > v.lastSeenAt) v.lastSeenAt = s.seenAt;
    if (s.ttclid !== undefined && (v.ttclidCapturedAt === undefined || s.seenAt >= v.ttclidCapturedAt)) {
      v.ttclid = s.ttclid;
      v.ttclidCapturedAt = s.seenAt;
    }
    if (s.ttp !== undefined && (v.ttpSeenAt === undefined || s.seenAt >= v.ttpSeenAt)) {
      v.ttp = s.ttp;
      v.ttpSeenAt = s.seenAt;
    }
    if (s.device !== undefined && (v.deviceSeenAt === undefined || s.seenAt >= v.deviceSeenAt)) {
      v.device = s.device;
      v.deviceSeenAt = s.seenAt;
    }
    merged.set(s.anonymousId, v);
  }
  return [...merged.values()].sort((a, b) => (a.anonymousId < b.anonymousId ? -1 : 1));
}

/** One row per (visitor, click ID), keeping the first time the click was seen. */
export function mergeClicks(sightings: readonly VisitorSighting[]): MergedClick[] {
  const merged = new Map<string, MergedClick>();
  for (const s of sightings) {
    if (s.ttclid === undefined) continue;
    const key = `${s.anonymousId}\0${s.ttclid}`;
    const known = merged.get(key);
    if (known === undefined || s.seenAt < known.capturedAt) {
      merged.set(key, { anonymousId: s.anonymousId, ttclid: s.ttclid, capturedAt: s.seenAt, pageUrl: s.pageUrl, ad: s.ad ?? known?.ad });
    }
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, click]) => click);
}
