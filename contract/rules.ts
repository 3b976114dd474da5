import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../sdk/src/rules/index.js';
import { currencyCode, jsonBody, requiredText, singleLine } from './fields';
import { ruleDestination } from './views';

/** Far below what numeric(18,4) holds: a single conversion worth more than a billion is a typo. */
const MAX_FIXED_AMOUNT = 1_000_000_000;

const amount = z
  .number({ error: (issue) => (issue.input === undefined ? 'is required for a fixed value' : 'must be a number') })
  .positive('must be a positive number')
  .max(MAX_FIXED_AMOUNT, `must be at most ${MAX_FIXED_AMOUNT}`);

const value = z.discriminatedUnion(
  'source',
  [
    jsonBody({ source: z.literal('order_total'), currency: currencyCode.optional() }),
    jsonBody({ source: z.literal('fixed'), amount, currency: currencyCode }),
    jsonBody({ source: z.literal('none') }),
  ],
  { error: 'must be one of order_total, fixed, none' },
);

export type RuleValue = z.infer<typeof value>;

/** `PUT …/conversion-rules/:event` (settings API and console): every field optional, the documented defaults filled in by the server. */
export const ruleBody = jsonBody({
  tiktokEvent: requiredText(100)
    .optional()
    .meta({ description: 'Default: the standard TikTok event the source event maps to, else its own name' }),
  /** Checked by the route against the rule's TikTok event (which the event's name may decide). */
  alsoSendAs: z
    .array(singleLine(z.string({ error: 'must be a TikTok event name' }).trim().max(100, 'must be at most 100 characters')), { error: 'must be a list of TikTok event names, e.g. ["PlaceAnOrder"]' })
    .optional(),
  value: value.optional(),
  serverOnly: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .meta({ description: "true: sent to TikTok by the server only, the tracking tag does not report these events to TikTok's browser pixel. Default: false" }),
  /** Checked by the route against the rule's TikTok events: offline takes standard events only, crm custom ones only. */
  destination: z
    .enum(ruleDestination.options, { error: `must be one of ${ruleDestination.options.join(', ')}` })
    .optional()
    .meta({
      description:
        'Where its conversions go: auto (app events to the TikTok app, events that happened offline, context.channel "offline", to the Offline Event Set, else the pixel), or always web, app, offline (a standard TikTok event) or crm (a custom TikTok event; each event names properties.lead_id). Default: auto',
    }),
});

/** An event name as ingest accepts it (the wire contract's limit), so every event that arrives can have a rule. */
export const eventParam = z.object({
  event: z.string().trim().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`),
});
