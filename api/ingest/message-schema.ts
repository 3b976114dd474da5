import { z } from 'zod';
import { timestampProblem, type ValidMessage } from '../../sdk/src/rules/index.js';
import { MAX_EVENTS_PER_BATCH } from '../http/limits';

/**
 * One message as the ingest API accepted it. Messages are checked by the rules the client library shares
 * (`sdk/src/rules`, `checkMessage`); zod checks only the envelope around them.
 */
export type IncomingMessage = ValidMessage;

/** The JSON the message rules wrote for each message they accepted (`checkMessage`), so that it is not written again to store it. */
export const acceptedJson = new WeakMap<IncomingMessage, string>();

const json = z.record(z.string(), z.unknown(), { error: 'must be an object' });

/** An ISO-8601 timestamp with a zone, in years 0001–9999: the message rules' own check. */
export const isoTimestamp = z.string({ error: 'must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z' }).superRefine((value, context) => {
  const problem = timestampProblem(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem, input: value });
});

export const batchSchema = z.object({
  batch: z
    .array(z.unknown(), { error: 'is required: an array of messages' })
    .min(1, 'must hold at least one message')
    .max(MAX_EVENTS_PER_BATCH, `must hold at most ${MAX_EVENTS_PER_BATCH} messages`),
  sentAt: isoTimestamp.optional(),
  context: json.optional(),
}, { error: 'must be a JSON object with a batch array' });
