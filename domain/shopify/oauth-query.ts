import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Shopify's signature of the query it redirects with (`code`, `shop`, `state`, `timestamp`, …): hex HMAC-SHA256, keyed
 * with the app's client secret, of every other parameter as `name=value`, sorted by name and joined with `&`
 * (docs/reference/shopify-app.md "The callback").
 */
export function signShopifyQuery(params: Iterable<readonly [string, string]>, secret: string): string {
  const message = [...params]
    .filter(([name]) => name !== 'hmac')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Whether the query's `hmac` is Shopify's signature of the rest, compared in constant time. */
export function shopifyQuerySigned(params: Iterable<readonly [string, string]>, secret: string): boolean {
  const list = [...params];
  const given = list.filter(([name]) => name === 'hmac');
  if (given.length !== 1 || !/^[0-9a-f]{64}$/i.test(given[0]?.[1] ?? '')) return false;
  const expected = Buffer.from(signShopifyQuery(list, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(given[0]?.[1] as string, 'hex'));
}
