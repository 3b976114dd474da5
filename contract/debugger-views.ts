import { z } from 'zod';
import { conversionStatus, instant } from './views';

/* The console's event debugger. Imports nothing but zod and views.ts, for the console's build. */

const text = z.string().meta({ description: 'One or two sentences for a person; what is between backticks is code' });

/** What became of an event: the conversion(s) it became, or why none. */
export const eventOutcomeView = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('conversions'),
    text,
    conversions: z.array(z.strictObject({ id: z.string(), tiktokEvent: z.string(), status: conversionStatus, reason: z.string().nullable(), testMode: z.boolean() })),
  }),
  z.strictObject({ kind: z.literal('duplicate'), text, conversionId: z.string(), messageId: z.string(), tiktokEvent: z.string() }),
  z.strictObject({
    kind: z.literal('no_rule'),
    text,
    eventName: z.string(),
    warning: z.string().nullable().meta({ description: 'Why this event should not become a TikTok conversion (a refund, a change in the shop); null when nothing speaks against it' }),
  }),
  z.strictObject({ kind: z.literal('rule_added_later'), text, eventName: z.string() }),
  z.strictObject({ kind: z.literal('not_a_conversion'), text }),
  z.strictObject({ kind: z.literal('no_conversion'), text }),
]);
export type EventOutcomeView = z.infer<typeof eventOutcomeView>;

export const debuggerEventView = z.strictObject({
  id: z.string(),
  type: z.string(),
  eventName: z.string().nullable(),
  receivedAt: instant,
  userId: z.string().nullable(),
  anonymousId: z.string().nullable(),
  message: z.record(z.string(), z.unknown()).meta({ description: 'The message as stored' }),
  outcome: eventOutcomeView,
});
export type DebuggerEventView = z.infer<typeof debuggerEventView>;

/** A refusal in words: what happened and what to do, with the console page that does it. */
export const refusalWordsView = z.strictObject({ title: z.string(), explanation: z.string(), fix: z.string(), link: z.strictObject({ page: z.string(), label: z.string() }).nullable() });
export type RefusalWordsView = z.infer<typeof refusalWordsView>;

/** A request ingest refused for the workspace. */
export const ingestRefusalView = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  at: instant,
  status: z.number().int(),
  error: z.string(),
  message: z.string(),
  issues: z.array(z.string()).nullable(),
  path: z.string(),
  keyPrefix: z.string().nullable().meta({ description: 'The first characters of the key used, never the key' }),
  origin: z.string().nullable().meta({ description: 'The Origin header of the page that sent it' }),
  reason: z.string().nullable().meta({ description: 'Why ingest refused its key, else null' }),
  source: z.strictObject({ name: z.string(), type: z.enum(['shopify', 'webhook']) }).nullable().meta({ description: 'The Shopify or webhook source the refused delivery was posted to; null for the ingest API' }),
  words: refusalWordsView,
});
export type IngestRefusalView = z.infer<typeof ingestRefusalView>;

/** `GET …/debugger`: the events and refusals after the cursor given, and the cursor to ask with next. */
export const debuggerBatchView = z.strictObject({
  events: z.array(debuggerEventView),
  refusals: z.array(ingestRefusalView),
  cursor: z.strictObject({ afterEventId: z.string(), afterRefusalId: z.string() }),
});
export type DebuggerBatchView = z.infer<typeof debuggerBatchView>;
