/** What the owner is asked for, in words: the shop's own myshopify.com address, which Shopify never changes. */
export const SHOP_DOMAIN_RULE = "must be your shop's myshopify.com address, e.g. fern-shop.myshopify.com (Shopify admin → Settings → Domains)";

/** A shop's permanent domain: a name of letters, digits and hyphens under myshopify.com (reference: docs/reference/shopify-app.md). */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/**
 * The shop's domain as Shopify writes it (`fern-shop.myshopify.com`), from what an owner types or pastes: any case, with
 * or without `https://` and a trailing slash. Undefined for anything else (another domain, a path, a port).
 */
export function shopDomainOf(input: string): string | undefined {
  const domain = input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/$/, '');
  return SHOP_DOMAIN.test(domain) ? domain : undefined;
}
