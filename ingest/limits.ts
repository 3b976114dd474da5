/** Ingest limits (DESIGN.md "Wire contract"); the client library mirrors them. */
export const MAX_EVENTS_PER_BATCH = 10_000;
/** Uncompressed JSON body of one request. */
export const MAX_BATCH_BYTES = 5 * 1024 * 1024;
/** JSON of one message. */
export const MAX_EVENT_BYTES = 32 * 1024;
/** Requests per second per workspace (spec §8). */
export const REQUESTS_PER_SECOND_PER_WORKSPACE = 1_000;
