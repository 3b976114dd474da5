/**
 * On a Shopify storefront: the visitor's anonymous ID (`sbx_aid`) and, while it is inside the window, their TikTok
 * click (`ttclid`) as cart attributes, which Shopify copies to the checkout and the order (`note_attributes`), so that
 * an order's webhook names the visitor who clicked. Shopify's Ajax cart API, at the locale-aware root Shopify gives
 * themes (`window.Shopify.routes.root`, always ending in `/`): `GET cart.js` reads the cart, `POST cart/update.js`
 * with `{ attributes }` sets them, an empty value removes one. Written only when the cart does not hold them already.
 */
export const CART_ANONYMOUS_ID = 'sbx_aid';
export const CART_TTCLID = 'ttclid';

type CartFetch = (url: string, init?: RequestInit) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** The storefront's cart root, when this page is a Shopify theme's; undefined anywhere else. */
export function shopifyCartRoot(shopify: unknown): string | undefined {
  const root = (shopify as { routes?: { root?: unknown } } | undefined)?.routes?.root;
  return typeof root === 'string' && root.endsWith('/') ? root : undefined;
}

/** Resolves once the cart holds `anonymousId` and `ttclid` (none: any earlier click is removed). */
export async function writeCartAttributes(root: string, fetchImpl: CartFetch, anonymousId: string, ttclid: string | undefined): Promise<void> {
  const read = await fetchImpl(`${root}cart.js`, { credentials: 'same-origin' });
  if (!read.ok) throw new Error(`cart.js: HTTP ${read.status}`);
  const held = ((await read.json()) as { attributes?: Record<string, unknown> } | null)?.attributes ?? {};
  const attributes: Record<string, string> = {};
  if (held[CART_ANONYMOUS_ID] !== anonymousId) attributes[CART_ANONYMOUS_ID] = anonymousId;
  if ((held[CART_TTCLID] ?? '') !== (ttclid ?? '')) attributes[CART_TTCLID] = ttclid ?? '';
  if (Object.keys(attributes).length === 0) return;
  const written = await fetchImpl(`${root}cart/update.js`, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ attributes }) });
  if (!written.ok) throw new Error(`cart/update.js: HTTP ${written.status}`);
}
