import { z } from 'zod';
import { instant } from './views';

/* Connect Shopify's answers (api/services/shopify-connection): imports nothing but zod and the other answer files. */

export const shopifySubscriptionView = z.strictObject({ topic: z.string().meta({ description: 'e.g. orders/create' }), id: z.string().meta({ description: "Shopify's ID of the webhook subscription" }) });

export const shopifyConnectionView = z.strictObject({
  workspaceId: z.string(),
  shopDomain: z.string().meta({ description: "The shop's myshopify.com domain" }),
  grantedScopes: z.array(z.string()),
  connectedAt: instant,
  source: z.strictObject({ id: z.string(), webhookUrl: z.string() }).nullable().meta({ description: 'The Shopify source the webhooks deliver to; null once deleted' }),
  subscriptions: z.array(shopifySubscriptionView).meta({ description: 'The webhook subscriptions Signalbox made in the shop' }),
  missingTopics: z.array(z.string()).meta({ description: 'Topics Signalbox subscribes that the shop lacks (a step failed: connect again)' }),
  scriptTag: z.strictObject({ id: z.string(), src: z.string() }).nullable().meta({ description: 'The storefront script tag that loads the tracking tag with its browser key' }),
  browserKeyId: z.string().nullable().meta({ description: 'The browser key made for the storefront script (the key itself is in the script\'s URL)' }),
});
export type ShopifyConnectionViewBody = z.infer<typeof shopifyConnectionView>;

export const shopifyStatusView = z.strictObject({
  configured: z.boolean().meta({ description: 'Whether this server offers Connect Shopify (SHOPIFY_API_KEY and SHOPIFY_API_SECRET set)' }),
  connection: shopifyConnectionView.nullable(),
});
export type ShopifyStatusViewBody = z.infer<typeof shopifyStatusView>;

export const shopifyAuthorizationView = z.strictObject({
  url: z.string().meta({ description: "Shopify's page where the owner approves the Signalbox app" }),
  state: z.string(),
  expiresAt: instant,
  shopDomain: z.string(),
});
export type ShopifyAuthorizationViewBody = z.infer<typeof shopifyAuthorizationView>;
