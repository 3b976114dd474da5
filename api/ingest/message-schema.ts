import type { ValidMessage } from '../../sdk/src/rules/index.js';

/**
 * One message as the ingest API accepted it. Messages are checked by the rules the client library shares
 * (`sdk/src/rules`, `checkMessage`); zod checks only the envelope around them.
 */
export type IncomingMessage = ValidMessage;

/** The JSON the message rules wrote for each message they accepted (`checkMessage`), so that it is not written again to store it. */
export const acceptedJson = new WeakMap<IncomingMessage, string>();
