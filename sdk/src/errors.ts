export type DeliveryFailureReason = 'rejected' | 'retries_exhausted' | 'queue_overflow';

export interface DeliveryFailure {
  /** `rejected`: the ingest API refused the batch (a 4xx that is not retried); `retries_exhausted`: every attempt
   * failed; `queue_overflow`: dropped, oldest first, from a full queue before being sent. */
  reason: DeliveryFailureReason;
  eventCount: number;
  /** The cause in a few words, e.g. `HTTP 401: unknown API key` or `connect ECONNREFUSED 127.0.0.1:80`. */
  detail: string;
  /** HTTP status of the last attempt, when one answered. */
  statusCode?: number;
  /** Requests made for the batch. */
  attempts?: number;
}

function describe(failure: DeliveryFailure): string {
  const events = plural(failure.eventCount, 'event');
  switch (failure.reason) {
    case 'rejected':
      return `Failed to deliver ${events}: the ingest API rejected them (${failure.detail}); not retried`;
    case 'retries_exhausted':
      return `Failed to deliver ${events} after ${plural(failure.attempts ?? 1, 'attempt')}: ${failure.detail}`;
    case 'queue_overflow':
      return `Dropped ${failure.eventCount} oldest queued ${failure.eventCount === 1 ? 'event' : 'events'}: ${failure.detail}`;
  }
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Events that were not delivered; given to `error` listeners, never thrown at the caller of `track()`. */
export class DeliveryError extends Error implements DeliveryFailure {
  readonly reason: DeliveryFailureReason;
  readonly eventCount: number;
  readonly detail: string;
  readonly statusCode?: number;
  readonly attempts?: number;

  constructor(failure: DeliveryFailure) {
    super(describe(failure));
    this.name = 'SignalboxDeliveryError';
    this.reason = failure.reason;
    this.eventCount = failure.eventCount;
    this.detail = failure.detail;
    this.statusCode = failure.statusCode;
    this.attempts = failure.attempts;
  }
}

/** Rejection of `flush()` and `close()`: how many of the events they waited for were not delivered, and why. */
export class FlushError extends Error {
  constructor(
    readonly failedCount: number,
    readonly totalCount: number,
    /** One line per distinct cause. */
    readonly reasons: string[],
  ) {
    super(`${failedCount} of ${plural(totalCount, 'event')} ${totalCount === 1 ? 'was' : 'were'} not delivered: ${reasons.join('; ')}`);
    this.name = 'SignalboxFlushError';
  }
}
