/**
 * A scripted misbehaviour for the next matching request(s). Exactly what is answered:
 * - `body`: that raw body with `httpStatus` (default 200), e.g. an nginx HTML page;
 * - `code`: a TikTok envelope with that code and `message` (default: a TikTok-like text), HTTP `httpStatus` (default 200);
 * - only `httpStatus`: a gateway HTML page with that status;
 * - only `latencyMs`: the real answer, late. `latencyMs` also delays any of the answers above.
 */
export interface FakeTikTokFault {
  /** API path the fault applies to, e.g. `/open_api/v1.3/event/track/`; absent: any TikTok path. */
  path?: string;
  /**
   * Only requests whose raw body contains this text, e.g. one event's `event_id`: plays TikTok refusing a request
   * because of one event, by a rule the fake does not know.
   */
  bodyIncludes?: string;
  code?: number;
  message?: string;
  httpStatus?: number;
  body?: string;
  latencyMs?: number;
  /** How many matching requests it affects. Default 1. */
  times?: number;
  /**
   * A burst instead of a count: every matching request for this many milliseconds from when the fault is queued, on
   * the real clock (whatever `PUT /_fake/clock` pinned). Excludes `times`.
   */
  forMs?: number;
}

/**
 * Faults are consumed in the order they were queued, per path (and body text, when they name one); a burst (`forMs`)
 * answers every matching request until it ends. `now` is a monotonic clock in milliseconds.
 */
export class FaultQueue {
  private queue: { fault: FakeTikTokFault; remaining: number; endsAt: number }[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  add(faults: readonly FakeTikTokFault[]): void {
    const at = this.now();
    for (const fault of faults) {
      const burst = fault.forMs !== undefined;
      this.queue.push({ fault, remaining: burst ? Infinity : (fault.times ?? 1), endsAt: burst ? at + (fault.forMs as number) : Infinity });
    }
  }

  take(path: string, rawBody: string): FakeTikTokFault | undefined {
    const at = this.now();
    this.queue = this.queue.filter((entry) => entry.endsAt > at);
    const index = this.queue.findIndex(
      ({ fault }) => (fault.path === undefined || fault.path === path) && (fault.bodyIncludes === undefined || rawBody.includes(fault.bodyIncludes)),
    );
    if (index === -1) return undefined;
    const entry = this.queue[index];
    entry.remaining -= 1;
    if (entry.remaining === 0) this.queue.splice(index, 1);
    return entry.fault;
  }

  clear(): void {
    this.queue = [];
  }
}

/** True when the fault replaces the answer rather than only delaying it. */
export function replacesAnswer(fault: FakeTikTokFault): boolean {
  return fault.code !== undefined || fault.body !== undefined || fault.httpStatus !== undefined;
}
