import { z } from 'zod';
import { conversionSource, instant, ruleValueView } from './views';

/* What the settings API tells of received events: the list, the rules they suggest, the match keys delivered conversions carried. Imports nothing but zod and views.ts. */

/** An event as listed, without its message (which may hold personal data). */
export const eventView = z.strictObject({
  id: z.string(),
  messageId: z.string(),
  type: z.string().meta({ description: 'The Segment message type: track, page, identify, ...' }),
  eventName: z.string().nullable(),
  userId: z.string().nullable(),
  anonymousId: z.string().nullable(),
  occurredAt: instant,
  receivedAt: instant,
  duplicateOfConversionId: z.string().nullable().meta({ description: 'Set when it repeated an order ID or event ID: the conversion it repeats (no new one was made)' }),
});
export type EventView = z.infer<typeof eventView>;

export const eventPageView = z.strictObject({ events: z.array(eventView), nextCursor: z.string().nullable() });
export type EventPageView = z.infer<typeof eventPageView>;

/** An event name no rule maps, with what `PUT …/conversion-rules/:event` would choose for it. */
export const ruleSuggestionView = z.strictObject({
  event: z.string(),
  count: z.number().int(),
  lastSeenAt: instant,
  tiktokEvent: z.string(),
  mapping: z.enum(['standard', 'segment', 'tiktok', 'custom']).meta({ description: 'How the TikTok event was chosen: standard, the specification\'s table; segment, a Segment spec name; tiktok, already a TikTok event name; custom, sent under its own name' }),
  value: ruleValueView,
});
export type RuleSuggestionView = z.infer<typeof ruleSuggestionView>;

export const ruleSuggestionsView = z.strictObject({ since: instant, suggestions: z.array(ruleSuggestionView) });
export type RuleSuggestionsView = z.infer<typeof ruleSuggestionsView>;

/** `GET …/match-keys`: of the conversions delivered in the period, the share that carried each match key, and where the keys came from. */
export const matchKeyCoverageView = z.strictObject({
  workspaceId: z.string(),
  days: z.number().int(),
  since: instant,
  source: conversionSource.nullable().meta({ description: 'The source counted; null: all of them' }),
  delivered: z.number().int().meta({ description: 'Delivered conversions (test mode excluded) created in the period' }),
  keys: z.array(
    z.strictObject({
      key: z.string(),
      conversions: z.number().int(),
      share: z.number().nullable().meta({ description: 'conversions / delivered, to 4 decimals; null when nothing was delivered' }),
      sources: z.strictObject({ message: z.number().int(), visitor: z.number().int(), identity: z.number().int() }),
    }),
  ),
});
export type MatchKeyCoverageView = z.infer<typeof matchKeyCoverageView>;
