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
