import { meaningfulIdentifier } from '../identifiers';
import { record, text } from '../webhooks/webhook-json';

/** Cart attributes the tracking script writes on a Shopify storefront (web/src/shopify-cart.ts); orders carry them as `note_attributes`. */
export const CART_ATTRIBUTE_ANONYMOUS_ID = 'sbx_aid';
export const CART_ATTRIBUTE_TTCLID = 'ttclid';

/** Who a Shopify resource is, as a message's `userId`, `anonymousId` and `context.ttclid`. */
export interface ShopifyVisitor {
  userId?: string;
  anonymousId?: string;
  ttclid?: string;
  /** Where the click was found: the tag's cart attribute, or the visit's landing page as Shopify kept it with the order. */
  clickFrom?: ClickFrom;
}

export type ClickFrom = 'cart' | 'landing_page';

/**
 * The attributes of an order or checkout (`note_attributes: [{ name, value }]`) or of a cart (the Ajax API's
 * `attributes: { name: value }`; carts/update deliveries carry `note_attributes` too, as RudderStack's Shopify source
 * tests show).
 */
function attribute(resource: Record<string, unknown>, name: string): string | undefined {
  const list = resource.note_attributes;
  if (Array.isArray(list)) {
    const found = list.map(record).find((entry) => entry?.name === name);
    if (found !== undefined) return text(found.value);
  }
  return text(record(resource.attributes)?.[name]);
}

/** `?ttclid=` of the first page of the visit (`landing_site` is its path and query, e.g. `/products/x?ttclid=…`). */
function landingTtclid(landingSite: unknown): string | undefined {
  const path = text(landingSite);
  if (path === undefined || !path.includes('ttclid')) return undefined;
  try {
    return text(new URL(path, 'https://shop.invalid').searchParams.get('ttclid'));
  } catch {
    return undefined;
  }
}

/**
 * The visitor of an order, checkout or cart. The anonymous ID is the one the tag wrote into the cart (`sbx_aid`), so the
 * order joins that visitor's page views and click; without it, the cart's token (so a cart, its checkout and its order
 * are one visitor, as RudderStack's source does); with neither, `fallbackId` (the resource's own) unless the customer
 * is known. The click is the tag's `ttclid` attribute, else the `ttclid` of the visit's landing page.
 */
export function shopifyVisitor(resource: Record<string, unknown>, { cartToken: token, fallbackId }: { cartToken: unknown; fallbackId: string }): ShopifyVisitor {
  const userId = meaningfulIdentifier(text(record(resource.customer)?.id));
  const cartToken = meaningfulIdentifier(text(token));
  const anonymousId =
    meaningfulIdentifier(attribute(resource, CART_ATTRIBUTE_ANONYMOUS_ID)) ?? (cartToken === undefined ? undefined : `shopify-cart-${cartToken}`) ?? (userId === undefined ? fallbackId : undefined);
  const fromCart = meaningfulIdentifier(attribute(resource, CART_ATTRIBUTE_TTCLID));
  const ttclid = fromCart ?? landingTtclid(resource.landing_site);
  const visitor: ShopifyVisitor = {};
  if (userId !== undefined) visitor.userId = userId;
  if (anonymousId !== undefined) visitor.anonymousId = anonymousId;
  if (ttclid !== undefined) Object.assign(visitor, { ttclid, clickFrom: fromCart === undefined ? 'landing_page' : 'cart' });
  return visitor;
}
