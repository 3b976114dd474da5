/** Throttling (40100, 40133, HTTP 429, …) or any other transient failure (system codes, HTTP 5xx, network). */
export type RetryClass = 'throttled' | 'transient';

/**
 * How TikTok calls are retried: conversion delivery, and the statistics pull's activity retries. Each error class
 * counts its own consecutive failures, so one throttling answer after six 5xx waits the throttling's first step, not
 * the seventh.
 *
 * While TikTok fails transiently (an outage) the waits grow only up to the probe interval, and each attempt is a probe
 * (one event, see `probes`): TikTok gets one small request per interval per connection, and delivery resumes within
 * about that interval of TikTok answering again, however long the outage lasted. Throttling is TikTok asking us to slow
 * down: its waits keep growing to minutes.
 */
export interface DeliveryRetryPolicy {
  /** First wait after a failure of each class, in milliseconds; doubles with each consecutive failure of that class. */
  initialMs: Record<RetryClass, number>;
  /** Longest wait of each class before jitter; for `transient`, the probe interval. */
  maximumMs: Record<RetryClass, number>;
  /**
   * How long after its event time a conversion is still worth sending. TikTok attributes clicks up to 28 days back and
   * the only stated event-time limit for web events is 28 days (reference §1.5 [V1] Amperity; §9 attribution windows).
   */
  horizonMs: number;
}

const DAY_MS = 86_400_000;
/** TikTok's event-time horizon, in days: see `horizonMs`. */
export const TIKTOK_EVENT_HORIZON_DAYS = 28;
/** Waits are spread by up to a fifth either way, so that workspaces failing together do not retry together. */
const JITTER = 0.2;

export const DEFAULT_DELIVERY_RETRY: DeliveryRetryPolicy = {
  // TikTok sends no Retry-After; its guidance is to wait from a second (QPS limits) to minutes (QPM limits).
  initialMs: { transient: 1_000, throttled: 5_000 },
  // 20 s ± 20%: three probes a minute during an outage, and back within 24 s of TikTok answering (issue 19's
  // target is 60 s, which leaves room for a probe that times out, 10 s, and the group being claimed again).
  maximumMs: { transient: 20_000, throttled: 5 * 60_000 },
  horizonMs: TIKTOK_EVENT_HORIZON_DAYS * DAY_MS,
};

export interface BackoffState {
  retryClass: RetryClass | null;
  classFailures: number;
}

/** The state after one more failure of `failed`: the count goes on within a class and restarts when the class changes. */
export function afterFailure(state: BackoffState, failed: RetryClass): BackoffState & { retryClass: RetryClass } {
  return { retryClass: failed, classFailures: state.retryClass === failed ? state.classFailures + 1 : 1 };
}

/** Wait before the next attempt, with jitter. */
export function backoffMs(policy: DeliveryRetryPolicy, state: BackoffState, random: () => number = Math.random): number {
  if (state.retryClass === null || state.classFailures === 0) return 0;
  const base = Math.min(policy.initialMs[state.retryClass] * 2 ** (state.classFailures - 1), policy.maximumMs[state.retryClass]);
  return Math.round(base * (1 - JITTER + random() * 2 * JITTER));
}

/**
 * After a transient failure the next attempt is a probe: a single event, not the whole backlog. Once TikTok answers
 * it, everything waiting goes at once. Throttled attempts are not probes: TikTok's rate limits count requests, not
 * events, so a whole group per request is the gentlest.
 */
export function probes(state: BackoffState): boolean {
  return state.retryClass === 'transient' && state.classFailures > 0;
}

/**
 * The longest wait from TikTok answering again to the next attempt, however long it was failing transiently: one
 * probe interval with its jitter. The attempt itself (a request that may time out) and the claim come on top.
 */
export function longestProbeWaitMs(policy: DeliveryRetryPolicy): number {
  return Math.round(policy.maximumMs.transient * (1 + JITTER));
}

/** The last moment a conversion of this event time may be sent. */
export function deliveryDeadline(policy: DeliveryRetryPolicy, eventTime: Date): Date {
  return new Date(eventTime.getTime() + policy.horizonMs);
}
