import { MAX_MESSAGE_BYTES } from '../../sdk/src/rules/index.js';

/** Ingest limits (DESIGN.md "Wire contract"), defined once in the message rules the client library shares. */
export { MAX_BATCH_BYTES, MAX_EVENTS_PER_BATCH } from '../../sdk/src/rules/index.js';
/** JSON of one message. */
export const MAX_EVENT_BYTES = MAX_MESSAGE_BYTES;
/** Requests per second per workspace (spec §8), sustained; and how many more a workspace may send at once. */
export const REQUESTS_PER_SECOND_PER_WORKSPACE = 1_000;
export const REQUEST_BURST_PER_WORKSPACE = 1_000;
/**
 * Characters of one path parameter (decoded) that routing accepts; Fastify's default is 100. Above every parameter's
 * own limit (an event name's 200, for instance), so the route's validation names the field and its limit rather than
 * routing answering a bare 414.
 */
export const MAX_PATH_PARAMETER_LENGTH = 1_000;
