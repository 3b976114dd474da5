import type { ValidMessage } from '../../sdk/src/rules/index.js';

/**
 * One message as the ingest API accepted it. Messages are checked by the rules the client library shares
 * (`sdk/src/rules`, `checkMessage`); zod checks only the envelope around them.
 */
export type IncomingMessage = ValidMessage;
