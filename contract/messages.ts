import { z } from 'zod';
import { MAX_EVENTS_PER_BATCH, MAX_MESSAGE_ID_LENGTH, MAX_NAME_LENGTH, MESSAGE_TYPES, timestampProblem } from '../sdk/src/rules/index.js';
import { checkedElsewhere } from './shown-as';

/** An ISO-8601 timestamp with a zone, in years 0001–9999: the message rules' own check. */
export const isoTimestamp = z
  .string({ error: 'must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z' })
  .superRefine((value, context) => {
    const problem = timestampProblem(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem, input: value });
  })
  .meta({ format: 'date-time' });

const jsonObject = z.record(z.string(), z.unknown());
const identifier = z.union([z.string(), z.number(), z.null()]);

/** A Segment message as the message rules (sdk/src/rules/message.ts) accept it; shown in the document, checked by the rules. */
const segmentMessage = z
  .object({
    type: z.enum(MESSAGE_TYPES).meta({ description: 'Required in a batch; on /v1/track and the others it defaults to the path\'s type' }),
    messageId: z.string().max(MAX_MESSAGE_ID_LENGTH).optional().meta({ description: 'Deduplicates retries: a message stored once is never stored again' }),
    timestamp: z.string().optional().meta({ format: 'date-time', description: 'When it happened; corrected by `sentAt` for the sender\'s clock' }),
    userId: identifier.optional().meta({ description: 'userId or anonymousId is required' }),
    anonymousId: identifier.optional(),
    event: z.string().max(MAX_NAME_LENGTH).optional().meta({ description: 'track: the event\'s name, e.g. Order Completed' }),
    name: z.string().max(MAX_NAME_LENGTH).nullable().optional().meta({ description: 'page, screen' }),
    category: z.string().nullable().optional().meta({ description: 'page' }),
    groupId: z.string().optional().meta({ description: 'group' }),
    previousId: z.string().optional().meta({ description: 'alias' }),
    properties: jsonObject.optional().meta({ description: 'track, page, screen: e.g. value, currency, order_id, products' }),
    traits: jsonObject.optional().meta({ description: 'identify, group: e.g. email, phone' }),
    context: jsonObject.optional().meta({ description: 'ip, userAgent, page.url (with ttclid), traits' }),
    integrations: jsonObject.optional(),
  })
  .meta({ id: 'Message', description: 'A Segment message (track, identify, page, screen, group or alias); unknown fields are dropped' });

const writeKey = z.string().optional().meta({ description: 'The API key, when it is not in the Authorization header or the query (Segment\'s browser library, sendBeacon)' });

/** `POST /v1/batch`: the envelope zod checks; each message is checked by the message rules. */
export const batchBody = z.object(
  {
    batch: z
      .array(checkedElsewhere(segmentMessage), { error: 'is required: an array of messages' })
      .min(1, 'must hold at least one message')
      .max(MAX_EVENTS_PER_BATCH, `must hold at most ${MAX_EVENTS_PER_BATCH} messages`),
    sentAt: isoTimestamp.optional(),
    context: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional().meta({ description: 'Merged under each message\'s own context' }),
    writeKey,
  },
  { error: 'must be a JSON object with a batch array' },
);

/** `sentAt` of a single message's body (the rest is the message). */
export const sentAtField = z.object({ sentAt: isoTimestamp.optional() });

/** `POST /v1/track` and the others: one message, checked by the message rules. */
export const singleMessageBody = checkedElsewhere(
  z.object({ ...segmentMessage.shape, type: segmentMessage.shape.type.optional(), sentAt: z.string().optional().meta({ format: 'date-time' }), writeKey }).meta({ id: 'SingleMessage' }),
);
