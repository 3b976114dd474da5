import { DEFAULT_DELIVERY_RETRY, type DeliveryRetryPolicy } from '../../domain/delivery-retry';

/**
 * TikTok's backoff on a tenth of its scale: probes every 2 s (20 s in production), starting at 100 ms. Throttling's cap
 * stays long, so that an outage waited out on any longer wait than the probe interval would show. TikTok's 28-day
 * horizon stays as it is.
 */
export const TENTH_SCALE_RETRY: DeliveryRetryPolicy = {
  ...DEFAULT_DELIVERY_RETRY,
  initialMs: { transient: 100, throttled: 500 },
  maximumMs: { transient: 2_000, throttled: 60_000 },
};

/**
 * Requests an outage of `outageMs` may cost under `policy`: those of the first attempt, the waits growing to the probe
 * interval, then one probe per interval at the shortest jitter.
 */
export function mostRequestsDuring(policy: DeliveryRetryPolicy, outageMs: number, firstAttemptRequests: number): number {
  const growing = Math.ceil(Math.log2(policy.maximumMs.transient / policy.initialMs.transient));
  return firstAttemptRequests + growing + Math.ceil(outageMs / (0.8 * policy.maximumMs.transient));
}
