import type { FakeTikTokControl } from '../../devstack/tiktok-fake';
import type { SettingsApi } from './settings-api';

/*
 * What Signalbox stored and what TikTok counted, read only through public faces: the settings API's events and
 * conversions listings (never the tables, whose layout may change) and the fake TikTok's log.
 */

const PAGE = 200;

async function everyPage<T>(api: SettingsApi, path: string, key: string): Promise<T[]> {
  const rows: T[] = [];
  for (let cursor: string | null | undefined; cursor !== null; ) {
    const page = await api<Record<string, unknown>>('GET', `${path}?limit=${PAGE}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    rows.push(...(page[key] as T[]));
    cursor = page.nextCursor as string | null;
  }
  return rows;
}

/** How many times each messageId is stored in the workspace. */
export async function storedMessages(api: SettingsApi, workspaceId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const event of await everyPage<{ messageId: string }>(api, `/workspaces/${workspaceId}/events`, 'events')) {
    counts.set(event.messageId, (counts.get(event.messageId) ?? 0) + 1);
  }
  return counts;
}

export interface ListedConversion {
  id: string;
  status: 'pending' | 'delivered' | 'skipped' | 'failed';
  reason: string | null;
  tiktokEvent: string;
  eventId: string;
}

export function conversions(api: SettingsApi, workspaceId: string): Promise<ListedConversion[]> {
  return everyPage<ListedConversion>(api, `/workspaces/${workspaceId}/conversions`, 'conversions');
}

export async function anyPending(api: SettingsApi, workspaceId: string): Promise<boolean> {
  const page = await api<{ conversions: unknown[] }>('GET', `/workspaces/${workspaceId}/conversions?status=pending&limit=1`);
  return page.conversions.length > 0;
}

/** Per TikTok event and event_id: the times TikTok accepted it, and of those the times it counted it (not deduplicated). */
export async function tiktokCounts(fake: FakeTikTokControl): Promise<{ counts: Map<string, { accepted: number; counted: number }>; requests: number; faulted: number }> {
  const { requests, events } = await fake.receivedEvents();
  const counts = new Map<string, { accepted: number; counted: number }>();
  for (const event of events) {
    const key = `${event.event}/${event.eventId ?? '(none)'}`;
    const count = counts.get(key) ?? { accepted: 0, counted: 0 };
    count.accepted += 1;
    if (!event.deduplicated) count.counted += 1;
    counts.set(key, count);
  }
  return { counts, requests: requests.length, faulted: requests.filter((r) => r.faulted).length };
}
