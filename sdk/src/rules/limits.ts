/** Limits of the ingest API's wire contract (DESIGN.md "Wire contract"), shared by the client library and the server. */

export const MAX_EVENTS_PER_BATCH = 10_000;
/** Uncompressed JSON body of one request. */
export const MAX_BATCH_BYTES = 5 * 1024 * 1024;
/** JSON of one message, as stored (known fields only). */
export const MAX_MESSAGE_BYTES = 32 * 1024;
/**
 * Objects and arrays nested inside one another, counting the message itself as level 1 (`properties` is level 2).
 * Checked without recursion, so no input can overflow the stack.
 */
export const MAX_NESTING_DEPTH = 64;

/** Characters of `messageId` (stored in a unique index). */
export const MAX_MESSAGE_ID_LENGTH = 256;
/** Characters of an event or page name. */
export const MAX_NAME_LENGTH = 200;
/**
 * UTF-8 bytes of an identifier that Signalbox indexes (`userId`, `anonymousId`, alias `previousId`,
 * `properties.event_id` or `eventId`, and `properties.order_id`). Two of them share an index entry, and PostgreSQL's B-tree entries
 * hold at most 2,704 bytes.
 */
export const MAX_IDENTIFIER_BYTES = 1024;
