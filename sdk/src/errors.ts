/** Every error this package creates; `instanceof SignalboxError` tells them from others. */
export class SignalboxError extends Error {
  // Set by hand in each class, so minified bundles keep the names too.
  override name = 'SignalboxError';
}

/** A call refused before anything was queued: its message breaks a rule of the ingest API. */
export class SignalboxValidationError extends SignalboxError {
  override name = 'SignalboxValidationError';
  /** One line per problem, with the field path, e.g. `timestamp must be an ISO-8601 timestamp …`. */
  readonly issues: readonly string[];

  constructor(call: string, issues: readonly string[]) {
    super(`${call}: ${issues.join('; ')}`);
    this.issues = issues;
  }
}

/** A call made after `close()`. */
export class SignalboxClosedError extends SignalboxError {
  override name = 'SignalboxClosedError';

  constructor(call: string) {
    super(`${call}: the client is closed; create a new Signalbox client to send more events`);
  }
}

export type DeliveryFailureReason = 'rejected' | 'retries_exhausted' | 'queue_overflow' | 'invalid_call' | 'abandoned';

export interface DeliveryFailure {
  /**
   * `rejected`: the ingest API refused the events (a 4xx that is not retried; with a 400 naming events, only those);
   * `retries_exhausted`: every attempt failed, or the retry horizon passed; `queue_overflow`: dropped, oldest first,
   * from a full queue before being sent; `invalid_call`: a call was refused and nobody handled its promise;
   * `abandoned`: still queued or in flight when `close({ timeoutMs })` gave up.
   */
  reason: DeliveryFailureReason;
  eventCount: number;
  /** The cause in a few words, e.g. `HTTP 401: unknown API key` or `connect ECONNREFUSED 127.0.0.1:80`. */
  detail: string;
  /** HTTP status of the last attempt, when one answered. */
  statusCode?: number | undefined;
  /** Requests made for the events. */
  attempts?: number | undefined;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
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
    case 'invalid_call':
      return `A call was refused and its promise was not handled: ${failure.detail}`;
    case 'abandoned':
      return `Abandoned ${events} at close: ${failure.detail}`;
  }
}

/** Events that were not delivered; given to `error` listeners, never thrown at the caller of `track()`. */
export class SignalboxDeliveryError extends SignalboxError implements DeliveryFailure {
  override name = 'SignalboxDeliveryError';
  readonly reason: DeliveryFailureReason;
  readonly eventCount: number;
  readonly detail: string;
  readonly statusCode?: number | undefined;
  readonly attempts?: number | undefined;

  constructor(failure: DeliveryFailure) {
    super(describe(failure));
    this.reason = failure.reason;
    this.eventCount = failure.eventCount;
    this.detail = failure.detail;
    this.statusCode = failure.statusCode;
    this.attempts = failure.attempts;
  }
}

/** What `flush()` and `close()` resolve with: every event they covered was delivered. */
export interface FlushResult {
  /** Events delivered among those the call covered. */
  delivered: number;
}

/** Counts of the events a `flush()` or `close()` covered that were not delivered. */
export interface FlushShortfall {
  /** Events covered: those queued or in flight when it was called, and those lost since the previous flush. */
  totalCount: number;
  /** Not delivered, for any reason (the three counts below, and refusals or exhausted retries). */
  failedCount: number;
  /** Of `failedCount`: dropped from a full queue (maxQueueSize). */
  droppedCount: number;
  /** Of `failedCount`: still queued or in flight at the deadline (`timeoutMs`). */
  pendingCount: number;
}

/** Rejection of `flush()` and `close()`: how many of the events they covered were not delivered, and why. */
export class SignalboxFlushError extends SignalboxError implements FlushShortfall {
  override name = 'SignalboxFlushError';
  readonly totalCount: number;
  readonly failedCount: number;
  readonly droppedCount: number;
  readonly pendingCount: number;
  /** One line per distinct cause. */
  readonly reasons: readonly string[];

  constructor(shortfall: FlushShortfall, reasons: readonly string[]) {
    const { failedCount, totalCount } = shortfall;
    super(`${failedCount} of ${plural(totalCount, 'event')} ${totalCount === 1 ? 'was' : 'were'} not delivered: ${reasons.join('; ')}`);
    this.totalCount = totalCount;
    this.failedCount = failedCount;
    this.droppedCount = shortfall.droppedCount;
    this.pendingCount = shortfall.pendingCount;
    this.reasons = reasons;
  }
}
