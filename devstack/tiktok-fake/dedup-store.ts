/**
 * TikTok counts an event once when the same (event_source_id, event, event_id) arrives again within 48 hours of
 * the first one (§5 [V2] HC-DEDUP). After the window the next arrival counts again and opens a new window.
 */
export class DedupStore {
  private readonly firstSeenMs = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  /** Records the arrival and tells whether it is a duplicate of one still inside its window. */
  isDuplicate(key: string, atMs: number): boolean {
    const first = this.firstSeenMs.get(key);
    if (first !== undefined && atMs - first < this.windowMs) return true;
    this.firstSeenMs.set(key, atMs);
    return false;
  }

  clear(): void {
    this.firstSeenMs.clear();
  }
}

/**
 * The one key both channels share: an Events API event (`event_source_id` = the pixel code) and a pixel event with the
 * same `event` and `event_id` are the same conversion. Test events are kept apart, as the Test Events view is.
 */
export function dedupKey(event: { test: boolean; pixelCode: string; event: string; eventId: string }): string {
  return JSON.stringify([event.test, event.pixelCode, event.event, event.eventId]);
}
