/** Throttling (40100, 40133, HTTP 429, …) or any other transient failure (system codes, HTTP 5xx, network). */
export type RetryClass = 'throttled' | 'transient';

/**
 * How long delivery keeps trying. A transient TikTok failure (system codes, HTTP 5xx, network) or throttling is
 * retried with capped exponential backoff until the conversion could no longer count at TikTok; then it ends
 * `failed / expired`. Each error class counts its own consecutive failures, so one throttling answer after six
 * 5xx waits the throttling's first step, not the seventh.
 */
export interface DeliveryRetryPolicy {
  /** First wait after a failure of each class, in milliseconds; doubles with each consecutive failure of that class. */
  initialMs: Record<RetryClass, number>;
  /** Longest wait between attempts. */
  maximumMs: number;
  /**
   * How long after its event time a conversion is still worth sending. TikTok attributes clicks up to 28 days back and
   * the only stated event-time limit for web events is 28 days (reference §1.5 [V1] Amperity; §9 attribution windows).
   */
  horizonMs: number;
}

const DAY_MS = 86_400_000;

export const DEFAULT_DELIVERY_RETRY: DeliveryRetryPolicy = {
  // TikTok sends no Retry-After; its guidance is to wait from a second (QPS limits) to minutes (QPM limits).
  initialMs: { transient: 1_000, throttled: 5_000 },
  maximumMs: 5 * 60_000,
  horizonMs: 28 * DAY_MS,
};

export interface BackoffState {
  retryClass: RetryClass | null;
  classFailures: number;
}

/** The state after one more failure of `failed`: the count goes on within a class and restarts when the class changes. */
export function afterFailure(state: BackoffState, failed: RetryClass): BackoffState & { retryClass: RetryClass } {
  return { retryClass: failed, classFailures: state.retryClass === failed ? state.classFailures + 1 : 1 };
}

/** Wait before the next attempt, with ±20% jitter so that workspaces throttled together do not retry together. */
export function backoffMs(policy: DeliveryRetryPolicy, state: BackoffState, random: () => number = Math.random): number {
  if (state.retryClass === null || state.classFailures === 0) return 0;
  const base = Math.min(policy.initialMs[state.retryClass] * 2 ** (state.classFailures - 1), policy.maximumMs);
  return Math.round(base * (0.8 + random() * 0.4));
}

/** The last moment a conversion of this event time may be sent. */
export function deliveryDeadline(policy: DeliveryRetryPolicy, eventTime: Date): Date {
  return new Date(eventTime.getTime() + policy.horizonMs);
}
