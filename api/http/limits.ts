import { MAX_BATCH_BYTES, MAX_MESSAGE_BYTES } from '../../sdk/src/rules/index.js';

/** Ingest limits (DESIGN.md "Wire contract"), defined once in the message rules the client library shares. */
export { MAX_BATCH_BYTES, MAX_EVENTS_PER_BATCH } from '../../sdk/src/rules/index.js';
/** JSON of one message. */
export const MAX_EVENT_BYTES = MAX_MESSAGE_BYTES;
/** Requests per second per workspace (spec §8), sustained; and how many more a workspace may send at once. */
export const REQUESTS_PER_SECOND_PER_WORKSPACE = 1_000;
export const REQUEST_BURST_PER_WORKSPACE = 1_000;
/**
 * Requests per second to one webhook source that its signature refuses, sustained, and how many more at once: a bucket
 * of their own, so that whoever knows a source's URL cannot spend its workspace's allowance, which only signed
 * deliveries take from.
 */
export const REFUSED_DELIVERIES_PER_SECOND_PER_SOURCE = 10;
export const REFUSED_DELIVERY_BURST_PER_SOURCE = 20;
/**
 * JSON of one message made from a signed webhook delivery: what the request's body limit allows, not MAX_EVENT_BYTES.
 * A platform cannot split its resource: a Shopify order of 250 lines (a body of about 150 KB) makes a message over
 * 32 KiB.
 */
export const MAX_WEBHOOK_MESSAGE_BYTES = MAX_BATCH_BYTES;
/**
 * Characters of one path parameter (decoded) that routing accepts; Fastify's default is 100. Above every parameter's
 * own limit (an event name's 200, for instance), so the route's validation names the field and its limit rather than
 * routing answering a bare 414.
 */
export const MAX_PATH_PARAMETER_LENGTH = 1_000;
