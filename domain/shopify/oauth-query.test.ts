import { shopDomainOf } from './shop-domain';
import { shopifyQuerySigned, signShopifyQuery } from './oauth-query';

const params = (query: string) => [...new URLSearchParams(query)];

describe("Shopify's signed redirect query", () => {
  // Shopify's documented example (secret "hush"), as the exshopify and shopify_oauth libraries quote it.
  it('signs the sorted parameters but hmac as Shopify does', () => {
    expect(signShopifyQuery(params('shop=some-shop.myshopify.com&code=0907a61c0c8d55e99db179b68161bc00&timestamp=1337178173'), 'hush')).toBe(
      '4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20',
    );
    const withState = 'code=0907a61c0c8d55e99db179b68161bc00&hmac=700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173';
    expect(shopifyQuerySigned(params(withState), 'hush')).toBe(true);
  });

  it('refuses a changed parameter, another secret, a missing, repeated or malformed hmac', () => {
    const signed = 'code=0907a61c0c8d55e99db179b68161bc00&hmac=700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173';
    expect(shopifyQuerySigned(params(signed.replace('some-shop', 'other-shop')), 'hush')).toBe(false);
    expect(shopifyQuerySigned(params(signed), 'hush2')).toBe(false);
    expect(shopifyQuerySigned(params(signed.replace(/hmac=[0-9a-f]+&/, '')), 'hush')).toBe(false);
    expect(shopifyQuerySigned(params(`${signed}&hmac=700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf`), 'hush')).toBe(false);
    expect(shopifyQuerySigned(params(signed.replace(/hmac=[0-9a-f]+/, 'hmac=xyz')), 'hush')).toBe(false);
  });
});

describe('a shop domain', () => {
  it.each([
    ['fern-shop.myshopify.com', 'fern-shop.myshopify.com'],
    ['  https://Fern-Shop.myshopify.com/ ', 'fern-shop.myshopify.com'],
    ['http://fern2.myshopify.com', 'fern2.myshopify.com'],
  ])('reads %j as %s', (input, domain) => expect(shopDomainOf(input)).toBe(domain));

  it.each(['fern-shop.com', 'fern-shop.myshopify.com.evil.example', 'evil.example/fern.myshopify.com', 'fern.myshopify.com:8443', '-fern.myshopify.com', '.myshopify.com', 'fern shop.myshopify.com', 'fern.myshopify.com/admin'])(
    'refuses %j',
    (input) => expect(shopDomainOf(input)).toBeUndefined(),
  );
});
