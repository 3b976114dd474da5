/** Limits of the ingest API's wire contract, fixed for client and server alike (DESIGN.md, "Wire contract"). */
export const MAX_EVENTS_PER_BATCH = 10_000;
/** Uncompressed JSON body of one `POST /v1/batch` request. */
export const MAX_BATCH_BYTES = 5 * 1024 * 1024;
/** JSON of one message inside a batch. */
export const MAX_MESSAGE_BYTES = 32 * 1024;

/**
 * Field lengths the ingest API accepts (ingest/message-schema.ts). One bad message fails its whole batch with a 400,
 * so a call that would break them is rejected before it is queued.
 */
export const MAX_FIELD_LENGTHS = { messageId: 256, userId: 1024, anonymousId: 1024, event: 200, name: 200 } as const;

export const DEFAULT_HOST = 'https://ingest.signalbox.io';
export const BATCH_PATH = '/v1/batch';

/** Requests in flight at once per client; under load the queue grows into bigger batches instead. */
export const MAX_CONCURRENT_REQUESTS = 4;
/** The largest delay `setTimeout` accepts. */
export const MAX_TIMER_MS = 2_147_483_647;
