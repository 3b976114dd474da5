import { shopifyCartRoot, writeCartAttributes } from './shopify-cart';

/** Shopify's Ajax cart API as a theme page sees it: `cart.js` answers the cart, `cart/update.js` merges attributes ('' removes one). */
function fakeCart(attributes: Record<string, string> = {}, { failWith }: { failWith?: number } = {}) {
  const calls: { url: string; method: string; body?: unknown }[] = [];
  const cart = { token: 'c1', attributes: { ...attributes } as Record<string, string> };
  const fetchImpl = async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ url, method, ...(init?.body === undefined ? {} : { body: JSON.parse(String(init.body)) }) });
    if (failWith !== undefined) return { ok: false, status: failWith, json: async () => ({}) };
    if (method === 'POST') {
      for (const [name, value] of Object.entries((JSON.parse(String(init?.body)) as { attributes: Record<string, string> }).attributes)) {
        if (value === '') delete cart.attributes[name];
        else cart.attributes[name] = value;
      }
    }
    return { ok: true, status: 200, json: async () => cart };
  };
  return { calls, cart, fetchImpl };
}

describe('the cart attributes on a Shopify storefront', () => {
  it('is a storefront only when Shopify gave the page its routes root', () => {
    expect(shopifyCartRoot({ routes: { root: '/en-ca/' } })).toBe('/en-ca/');
    expect(shopifyCartRoot(undefined)).toBeUndefined();
    expect(shopifyCartRoot({ shop: 'x.myshopify.com' })).toBeUndefined();
  });

  it('writes the anonymous ID and the click into a cart that lacks them, under the locale root', async () => {
    const { calls, cart, fetchImpl } = fakeCart();
    await writeCartAttributes('/en-ca/', fetchImpl, 'visitor-1', 'E.C.P.abc');
    expect(calls).toEqual([
      { url: '/en-ca/cart.js', method: 'GET' },
      { url: '/en-ca/cart/update.js', method: 'POST', body: { attributes: { sbx_aid: 'visitor-1', ttclid: 'E.C.P.abc' } } },
    ]);
    expect(cart.attributes).toEqual({ sbx_aid: 'visitor-1', ttclid: 'E.C.P.abc' });
  });

  it('writes nothing when the cart holds them already, and only what changed otherwise', async () => {
    const same = fakeCart({ sbx_aid: 'visitor-1', ttclid: 'E.C.P.abc', gift: 'yes' });
    await writeCartAttributes('/', same.fetchImpl, 'visitor-1', 'E.C.P.abc');
    expect(same.calls.map((call) => call.method)).toEqual(['GET']);
    const newClick = fakeCart({ sbx_aid: 'visitor-1', ttclid: 'E.C.P.old' });
    await writeCartAttributes('/', newClick.fetchImpl, 'visitor-1', 'E.C.P.new');
    expect(newClick.calls[1]?.body).toEqual({ attributes: { ttclid: 'E.C.P.new' } });
  });

  it('removes a click the visitor no longer has (out of the window, consent revoked), leaving the shop’s own attributes', async () => {
    const { cart, fetchImpl } = fakeCart({ sbx_aid: 'visitor-1', ttclid: 'E.C.P.old', gift: 'yes' });
    await writeCartAttributes('/', fetchImpl, '', undefined);
    expect(cart.attributes).toEqual({ gift: 'yes' });
  });

  it('rejects with the status when the cart cannot be read (the page logs it; nothing is written)', async () => {
    const { calls, fetchImpl } = fakeCart({}, { failWith: 503 });
    await expect(writeCartAttributes('/', fetchImpl, 'visitor-1', undefined)).rejects.toThrow('cart.js: HTTP 503');
    expect(calls).toHaveLength(1);
  });
});
