import type { Batch } from './batch.js';
import type { EventSet } from './event-set.js';
import { plural, SignalboxDeliveryError } from './errors.js';
import { gzipParts } from './gzip.js';
import { BackoffSchedule, classifyResponse, classifyTransportError, MAX_RETRY_AFTER_MS, MIN_RETRY_AFTER_MS, type AttemptResult } from './retry-policy.js';
import type { RateLimitPause, RetryWaits } from './retry-waits.js';
import type { Transport } from './transport.js';

export interface DeliveryOptions {
  transport: Transport;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  retryLimit: number;
  retryHorizonMs: number;
  waits: RetryWaits;
  rateLimit: RateLimitPause;
  /** Called before each retry wait, for debug output. */
  onRetry: (line: string) => void;
}

/** What became of some of a batch's events: delivered, or failed with `error`. */
export interface Outcome {
  events: EventSet;
  error?: SignalboxDeliveryError | undefined;
}

/** Creates the function that sends one batch with its retries (retry-policy.ts); it resolves, never rejects. */
export function createDelivery(options: DeliveryOptions): (batch: Batch) => Promise<Outcome[]> {
  const schedule = new BackoffSchedule(options.retryLimit, options.retryHorizonMs);
  return (batch) => deliverBatch(batch, options, schedule);
}

async function deliverBatch(batch: Batch, options: DeliveryOptions, schedule: BackoffSchedule): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const startedAt = Date.now();
  let current: Batch | undefined = batch;
  let attempts = 0;
  let retries = 0;
  const failed = (events: EventSet, failure: Omit<ConstructorParameters<typeof SignalboxDeliveryError>[0], 'eventCount' | 'attempts'>): void => {
    outcomes.push({ events, error: new SignalboxDeliveryError({ ...failure, eventCount: events.count, attempts }) });
  };

  while (current !== undefined) {
    if (!(await options.rateLimit.over(options.waits))) {
      failed(current.events, { reason: 'abandoned', detail: 'the client was closed while rate-limited' });
      break;
    }
    const result = await attemptOnce(current, options);
    attempts += 1;
    if (result.outcome === 'delivered') {
      outcomes.push({ events: current.events });
      break;
    }
    const { detail, statusCode } = result;
    if (result.outcome === 'reject') {
      const named = result.eventIndexes;
      if (named !== undefined && [...named].every((index) => index < (current as Batch).count)) {
        const { removed, rest } = current.split(named);
        failed(removed, { reason: 'rejected', detail, statusCode });
        current = rest;
        continue;
      }
      failed(current.events, { reason: 'rejected', detail, statusCode });
      break;
    }
    const wait = nextWait(result, retries, options, schedule, Date.now() - startedAt);
    if (wait === undefined) {
      const why = options.retryLimit > 0 && retries < options.retryLimit ? ` (retry horizon of ${options.retryHorizonMs} ms passed)` : '';
      failed(current.events, { reason: 'retries_exhausted', detail: `${detail}${why}`, statusCode });
      break;
    }
    if (wait.counted) retries += 1;
    if (statusCode === 429) options.rateLimit.pauseFor(wait.ms);
    options.onRetry(`Retrying ${plural(current.count, 'event')} in ${wait.ms} ms (${wait.counted ? `retry ${retries} of ${options.retryLimit}` : 'as the server asked'}): ${detail}`);
    if (!(await options.waits.wait(wait.ms))) {
      failed(current.events, { reason: 'abandoned', detail: `the client was closed while waiting to retry (${detail})`, statusCode });
      break;
    }
  }
  return outcomes;
}

/** The wait before the next attempt, or undefined when the batch has failed for good. */
function nextWait(
  result: Extract<AttemptResult, { outcome: 'retry' }>,
  retries: number,
  options: DeliveryOptions,
  schedule: BackoffSchedule,
  elapsedMs: number,
): { ms: number; counted: boolean } | undefined {
  if (options.retryLimit === 0) return undefined;
  const remaining = options.retryHorizonMs - elapsedMs;
  if (remaining <= 0) return undefined;
  if (result.retryAfterMs !== undefined) {
    return { ms: Math.min(Math.max(result.retryAfterMs, MIN_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS, remaining), counted: false };
  }
  if (retries >= options.retryLimit) return undefined;
  return { ms: Math.min(schedule.delayMs(retries + 1, Math.random), remaining), counted: true };
}

async function attemptOnce(batch: Batch, options: DeliveryOptions): Promise<AttemptResult> {
  const sentAt = new Date();
  const body = await gzipParts(batch.bodyParts(sentAt));
  try {
    const response = await options.transport.send({
      url: options.url,
      headers: options.headers,
      body,
      timeoutMs: options.timeoutMs,
    });
    return classifyResponse(response, new Date());
  } catch (error) {
    return classifyTransportError(error);
  }
}
