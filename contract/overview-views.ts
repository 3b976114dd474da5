import { z } from 'zod';
import { conversionSource, conversionStatus, helpView, instant } from './views';

/* The console's Overview page. Imports nothing but zod and views.ts, for the console's build. */

const count = z.number().int();
const share = z.number().nullable().meta({ description: 'A share from 0 to 1; null when there is nothing to divide by' });
const day = z.string().meta({ description: 'YYYY-MM-DD in the period\'s time zone' });

/** Signalbox's estimate of TikTok's Event Match Quality per TikTok event, from the keys delivered conversions carried. */
export const matchQualityView = z.strictObject({
  points: z.array(z.strictObject({ key: z.string(), points: z.number() })).meta({ description: 'Each key\'s points; they add up to 10' }),
  events: z.array(
    z.strictObject({
      tiktokEvent: z.string(),
      source: conversionSource.nullable().meta({ description: 'Where its conversions came from: one row per source that delivered some; null for an event that delivered none' }),
      delivered: count,
      sampleLimit: count,
      estimate: z
        .strictObject({
          score: z.number().meta({ description: '0 to 10, one decimal' }),
          keyToAdd: z.strictObject({ key: z.string(), missingShare: z.number(), points: z.number() }).nullable().meta({ description: 'The missing key worth the most; null when none is missing' }),
        })
        .nullable()
        .meta({ description: 'null when nothing was delivered' }),
    }),
  ),
});
export type MatchQualityView = z.infer<typeof matchQualityView>;

/** `GET /console/api/workspaces/:workspaceId/overview`. */
export const overviewView = z.strictObject({
  period: z.strictObject({ from: instant, to: instant.meta({ description: 'Exclusive: midnight after the last day' }), timeZone: z.string(), now: instant }),
  events: z.array(z.strictObject({ day, type: z.string(), eventName: z.string().meta({ description: 'Empty for a message without a name' }), events: count })),
  conversions: z.array(
    z.strictObject({
      day,
      tiktokEvent: z.string(),
      status: conversionStatus,
      reason: z.string().nullable(),
      tiktokCode: z.number().int().nullable(),
      testMode: z.boolean(),
      sentWithoutClick: z.boolean(),
      conversions: count,
    }),
  ),
  tiktokEvents: z.array(
    z.strictObject({
      tiktokEvent: z.string(),
      lastDeliveredAt: instant.nullable(),
      deliveredLast7Days: count,
      status: z.enum(['active', 'no_recent_activity']),
      learningPhase: z.strictObject({ needed: count.meta({ description: 'Delivered events a week TikTok\'s learning phase needs' }), enough: z.boolean() }),
    }),
  ),
  matchKeys: z.strictObject({ delivered: count, sampleLimit: count, target: z.number(), keys: z.array(z.strictObject({ key: z.string(), conversions: count, share })) }),
  matchQuality: matchQualityView,
  eventIds: z.strictObject({ conversions: count, shareable: count.meta({ description: 'Of which carried an event ID from the event, so a pixel can share it' }), share }),
  reasons: z.array(z.strictObject({ reason: z.string(), help: helpView.nullable() })),
});
export type OverviewView = z.infer<typeof overviewView>;
