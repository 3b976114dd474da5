import { DEFAULT_DELIVERY_RETRY, type DeliveryRetryPolicy } from '../../domain/delivery-retry';

/** How the group workflow forms groups and retries them; the worker's defaults, replaced by tests. */
export interface PipelineSettings {
  /** At most this many conversions in a group (TikTok takes up to 1,000 events per request). */
  maxGroupSize: number;
  /**
   * While conversions keep coming, a group is claimed once the oldest waiting conversion has waited this long (or the
   * group is full). At 200 conversions/s groups hold ~30 (0.15 s of waiting and the group before it in flight), which
   * keeps a conversion's Temporal actions under 0.1 (issue 11); at 50/s a conversion reaches TikTok within 250 ms at
   * p99 (issue 49; BENCHMARKS.md "Conversion pipeline").
   */
  batchingWindowMs: number;
  /** A claim not finished within this time is taken over by the next claim (its holder is presumed dead). */
  leaseMs: number;
  /** TikTok's backoff for delivery, also the wait between attempts of a statistics pull that TikTok failed. */
  retry: DeliveryRetryPolicy;
  /**
   * From this attempt of a group step on, an error that is not PostgreSQL or Temporal being unavailable is taken for
   * one caused by some of the group's conversions: they are found and end `internal_error`, the others go on.
   */
  isolateCulpritsFromAttempt: number;
}

export const DEFAULT_PIPELINE_SETTINGS: PipelineSettings = {
  maxGroupSize: 1_000,
  batchingWindowMs: 150,
  leaseMs: 10 * 60_000,
  retry: DEFAULT_DELIVERY_RETRY,
  isolateCulpritsFromAttempt: 3,
};
