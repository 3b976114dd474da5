import { HttpError } from '../http/http-error';

export interface RateLimitSettings {
  /** Requests per second a workspace may send for as long as it likes. */
  perSecond: number;
  /** Requests a workspace may send at once above that pace (the bucket's size). */
  burst: number;
}

const WORKSPACE_REQUESTS = (perSecond: string, burst: string) => `this workspace sent more than ${perSecond} requests per second (bursts up to ${burst} more)`;

/**
 * A token bucket per key (a workspace, unless said otherwise), in this process: it holds up to `burst` requests and
 * refills at `perSecond`, so a steady `perSecond` always passes, whatever its jitter, and so does a burst of up to
 * `burst` on top of it; past that, requests are refused until the bucket refills. `now` is in milliseconds; `overLimit`
 * says what was sent too fast, given the pace and burst.
 */
export function createRateLimiter({ perSecond, burst }: RateLimitSettings, now: () => number = performance.now.bind(performance), overLimit = WORKSPACE_REQUESTS) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perSecond / 1000;

  return {
    /** Takes one request's token; when there is none, throws 429 with the seconds until there is. */
    take(key: string): void {
      const at = now();
      const bucket = buckets.get(key);
      const tokens = bucket === undefined ? burst : Math.min(burst, bucket.tokens + (at - bucket.at) * perMs);
      if (tokens >= 1) {
        if (bucket === undefined) buckets.set(key, { tokens: tokens - 1, at });
        else {
          bucket.tokens = tokens - 1;
          bucket.at = at;
        }
        return;
      }
      const retryAfter = Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
      throw new HttpError(
        429,
        'rate_limited',
        `${overLimit(perSecond.toLocaleString('en-US'), burst.toLocaleString('en-US'))}; retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`,
        undefined,
        { 'retry-after': String(retryAfter) },
      );
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
