import { z } from 'zod';
import { instant, ruleView } from './views';

/* "Send past events" and the console's Rules page. Imports nothing but zod and views.ts, for the console's build. */

const count = z.number().int();

/** With `dryRun`: what sending a rule's past events would do. */
export const pastEventsPreview = z.strictObject({
  event: z.string(),
  days: count,
  since: instant,
  until: instant,
  events: count.meta({ description: 'Stored events that would become conversions' }),
  conversions: count.meta({ description: 'The conversions they would make (a rule may send each as several)' }),
});
export type PastEventsPreviewView = z.infer<typeof pastEventsPreview>;

/** A run of "send past events", with its progress. */
export const pastEventsRun = z.strictObject({
  event: z.string(),
  days: count,
  since: instant,
  until: instant,
  status: z.enum(['running', 'done', 'rule_removed']),
  eventsToSend: count,
  conversionsToSend: count,
  eventsScanned: count,
  conversionsCreated: count,
  startedAt: instant,
  finishedAt: instant.nullable(),
});
export type PastEventsRunView = z.infer<typeof pastEventsRun>;

/** How many days back "Send past events" may reach, and what stops it there. */
export const pastEventsLimit = z.strictObject({ days: count, because: z.string() });
export type PastEventsLimitView = z.infer<typeof pastEventsLimit>;

/** Why an event should not become a TikTok conversion (a refund, a change in the shop), or null. */
const conversionWarning = z.string().nullable().meta({ description: 'Why this event should not become a TikTok conversion (a refund, a change in the shop); null when nothing speaks against it' });

/** `GET /console/api/workspaces/:workspaceId/rules`: the rules with their last week, and the events no rule maps yet. */
export const consoleRulesView = z.strictObject({
  rules: z.array(
    z.strictObject({
      ...ruleView.shape,
      eventsLast7Days: count,
      sample: z.strictObject({ receivedAt: instant, message: z.record(z.string(), z.unknown()) }).nullable().meta({ description: 'The newest event of the rule, as stored' }),
      pastEvents: pastEventsRun.nullable().meta({ description: 'The latest run of "send past events"; null when there was none' }),
      warning: conversionWarning,
    }),
  ),
  unmappedEvents: z.array(z.strictObject({ event: z.string(), eventsLast7Days: count, suggestedTiktokEvent: z.string(), warning: conversionWarning })),
  neededRules: z
    .array(z.strictObject({ event: z.string(), tiktokEvent: z.string(), source: z.string().meta({ description: 'The name of the source that sends it' }) }))
    .meta({ description: "Rules the workspace's Shopify and webhook sources need and no rule covers yet" }),
  tiktokStandardEvents: z.array(z.string()).meta({ description: 'What a rule\'s alsoSendAs may name' }),
  pastEventLimit: pastEventsLimit,
});
export type ConsoleRulesView = z.infer<typeof consoleRulesView>;
