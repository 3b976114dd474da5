import { z } from 'zod';
import { conversionStatus, identityKindView, identityLinkView, instant } from './views';

/* The console's People page: everything known about one person. Imports nothing but zod and views.ts, for the console's build. */

const identifier = z.strictObject({ kind: identityKindView, value: z.string() });

/** A campaign, ad group or ad: named once TikTok's statistics named it. */
const adEntity = z.strictObject({ id: z.string(), name: z.string().nullable() });
export type AdEntityView = z.infer<typeof adEntity>;

/** `POST …/people/lookup`: the identifiers linked to the one looked up (email and phone hashed as at ingest), and their visitors, clicks, events and conversions. */
export const personView = z.strictObject({
  lookedUp: identifier,
  found: z.boolean(),
  identifiers: z.array(
    z.strictObject({
      ...identifier.shape,
      hops: z.number().int().nonnegative().meta({ description: 'Links from the identifier looked up (at most four)' }),
      via: identifier.nullable().meta({ description: 'The identifier it was reached from' }),
      link: identityLinkView.nullable(),
    }),
  ),
  visitors: z.array(
    z.strictObject({
      anonymousId: z.string(),
      firstSeenAt: instant,
      lastSeenAt: instant,
      ttclid: z.string().nullable(),
      ttclidCapturedAt: instant.nullable(),
      ttp: z.string().nullable(),
      userAgent: z.string().nullable(),
    }),
  ),
  clicks: z.array(
    z.strictObject({ anonymousId: z.string(), ttclid: z.string(), capturedAt: instant, pageUrl: z.string().nullable(), campaign: adEntity.nullable(), adgroup: adEntity.nullable(), ad: adEntity.nullable() }),
  ),
  events: z.array(
    z.strictObject({ id: z.string(), type: z.string(), eventName: z.string().nullable(), receivedAt: instant, userId: z.string().nullable(), anonymousId: z.string().nullable() }),
  ),
  conversions: z.array(
    z.strictObject({
      id: z.string(),
      status: conversionStatus,
      reason: z.string().nullable(),
      tiktokEvent: z.string(),
      eventId: z.string(),
      eventTime: instant,
      value: z.number().nullable(),
      currency: z.string().nullable(),
    }),
  ),
});
export type PersonView = z.infer<typeof personView>;
