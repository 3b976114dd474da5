/** The fake's notion of now: real time until a test pins it, so the 48 h dedup window can be crossed at will. */
export class FakeClock {
  private pinnedMs: number | undefined;

  now(): Date {
    return new Date(this.pinnedMs ?? Date.now());
  }

  pin(at: Date): void {
    this.pinnedMs = at.getTime();
  }

  useRealTime(): void {
    this.pinnedMs = undefined;
  }
}
