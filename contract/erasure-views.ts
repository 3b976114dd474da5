import { z } from 'zod';
import { instant } from './views';

/* What an erasure did, as the settings API and the console answer it. Imports nothing but zod and views.ts, for the console's build. */

const count = z.number().int();

export const erasedCountsView = z.strictObject({
  eventsDeleted: count,
  eventsStripped: count.meta({ description: 'Kept for their conversions, without personal data' }),
  conversionsAnonymised: count,
  visitors: count,
  clicks: count,
  identityLinks: count,
});

/** `POST /admin/workspaces/:workspaceId/erasures`. */
export const erasureView = z.strictObject({
  id: z.string(),
  requestedAt: instant,
  identifiers: z
    .strictObject({ user_id: count, anonymous_id: count, email_sha256: count, phone_sha256: count })
    .meta({ description: 'How many identifiers of each kind the identity walk found for the person, the request\'s own included' }),
  truncated: z.boolean().meta({ description: 'The walk stopped at its limit: erase the identifiers it could not reach with another request' }),
  erased: erasedCountsView,
});
export type ErasureView = z.infer<typeof erasureView>;

/** `GET /admin/workspaces/:workspaceId/erasures`: newest first; the identifiers only as keyed digests. */
export const erasureLogView = z.strictObject({
  erasures: z.array(
    z.strictObject({
      id: z.string(),
      requestedAt: instant,
      actor: z.string(),
      identifiers: z.array(z.strictObject({ kind: z.string(), digest: z.string().meta({ description: 'HMAC-SHA-256 with the server\'s key' }) })),
      erased: erasedCountsView,
    }),
  ),
});
export type ErasureLogView = z.infer<typeof erasureLogView>;

/** A count of an erasure, in words: `field` names what, `after` how many. */
const erasureCount = z.strictObject({ field: z.string(), before: z.string(), after: z.string() });

/** The console's answer to an erasure: what went, in a sentence and counted. */
export const consoleErasureView = z.strictObject({ id: z.string(), requestedAt: instant, truncated: z.boolean(), summary: z.string(), counts: z.array(erasureCount) });
export type ConsoleErasureView = z.infer<typeof consoleErasureView>;

/** The console's log of erasures, which names nobody. */
export const consoleErasureLogView = z.strictObject({ erasures: z.array(z.strictObject({ id: z.string(), requestedAt: instant, actorName: z.string(), counts: z.array(erasureCount) })) });
export type ConsoleErasureLogView = z.infer<typeof consoleErasureLogView>;

/**
 * Shopify's privacy requests a workspace's Shopify sources received (issue 46), newest first: a customer's request for
 * their data (whom to answer, until that customer is erased), a customer's erasure and a shop's removal, with what went.
 */
export const consoleShopifyPrivacyRequestsView = z.strictObject({
  requests: z.array(
    z.strictObject({
      id: z.string(),
      receivedAt: instant,
      topic: z.enum(['customers/data_request', 'customers/redact', 'shop/redact']),
      sourceName: z.string(),
      shop: z.string().nullable(),
      customer: z.strictObject({ userId: z.string().optional(), email: z.string().optional(), phone: z.string().optional() }).nullable().meta({ description: 'A data request\'s customer, until they are erased' }),
      orders: z.array(z.string()),
      counts: z.array(erasureCount).meta({ description: 'What an erasure or a shop\'s removal took away' }),
    }),
  ),
});
export type ConsoleShopifyPrivacyRequestsView = z.infer<typeof consoleShopifyPrivacyRequestsView>;
