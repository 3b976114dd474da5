import { errorAnswer } from './errors';

/** The refusals of Connect Shopify's steps (api/services/shopify-connection, errors.ts), as each route can give them. */

export const shopifyNotConfigured = errorAnswer('Connect Shopify is not set up on this server (shopify_not_configured: SHOPIFY_API_KEY and SHOPIFY_API_SECRET), or PostgreSQL is unavailable');

export const shopifyNotConnected = errorAnswer('The workspace does not exist, or has no Shopify connection');

/** A step that calls the shop's Admin API with the stored token. */
export const callsShopify = {
  409: errorAnswer('Shopify refused the stored token (token_invalid): connect the shop again'),
  502: errorAnswer('Shopify refused a call (shopify_rejected), its words kept'),
  503: errorAnswer('Shopify is unavailable or throttling (shopify_unavailable), or PostgreSQL is: try again shortly'),
};
