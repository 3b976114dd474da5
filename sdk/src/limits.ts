/** The client's own limits; the wire contract's (batch and message sizes) are in rules/limits.ts, shared with the server. */

export const DEFAULT_HOST = 'https://ingest.signalbox.io';
export const BATCH_PATH = '/v1/batch';

/** Requests in flight at once per client; under load the queue grows into bigger batches instead. */
export const MAX_CONCURRENT_REQUESTS = 4;
/** The largest delay `setTimeout` accepts. */
export const MAX_TIMER_MS = 2_147_483_647;
/** A day: a batch older than that is not worth sending late. */
export const MAX_RETRY_HORIZON_MS = 86_400_000;
