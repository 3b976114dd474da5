import { FAKE_SHOP_DOMAIN, FAKE_SHOPIFY_API_KEY, FAKE_SHOPIFY_API_SECRET, startFakeShopifyAdmin, type FakeShopifyAdmin } from '../../../devstack/shopify-fake';
import { ShopifyConnectionError } from './errors';
import { createShopifyAdmin } from './shopify-admin';

let shopify: FakeShopifyAdmin;
beforeAll(async () => {
  shopify = await startFakeShopifyAdmin();
});
afterAll(() => shopify?.close());

const credentials = { clientId: FAKE_SHOPIFY_API_KEY, clientSecret: FAKE_SHOPIFY_API_SECRET };

/** A code as the fake's approval page gives it, for these scopes. */
async function approvedCode(scope: string): Promise<string> {
  const form = new URLSearchParams({ client_id: FAKE_SHOPIFY_API_KEY, scope, redirect_uri: 'https://signalbox.test.example/oauth/shopify/callback', state: 's' });
  const approved = await fetch(`${shopify.url}/shops/${FAKE_SHOP_DOMAIN}/admin/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  return new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
}

async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof ShopifyConnectionError)) throw new Error(`expected a ShopifyConnectionError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe("the Admin API client, against the fake Shopify's answers", () => {
  const admin = () => createShopifyAdmin({ shopUrl: shopify.shopUrl, targets: { internalAddresses: 'allow' } });

  it('exchanges a code once; a used code is refused in words', async () => {
    const code = await approvedCode('read_orders,write_script_tags');
    expect(await admin().exchangeCode(FAKE_SHOP_DOMAIN, { ...credentials, code })).toEqual({ accessToken: expect.stringMatching(/^shpat_/), scopes: ['read_orders', 'write_script_tags'] });
    expect(await refusal(admin().exchangeCode(FAKE_SHOP_DOMAIN, { ...credentials, code }))).toEqual({
      code: 'code_rejected',
      message: 'code: Shopify refused it (The authorization code was not found or was already used); connect the shop again',
    });
  });

  it("keeps Shopify's userErrors, takes a delete of what is gone as done, and tells a revoked token from a refusal", async () => {
    const { accessToken } = await admin().exchangeCode(FAKE_SHOP_DOMAIN, { ...credentials, code: await approvedCode('read_orders') });
    const uri = 'https://signalbox.test.example/v1/webhooks/src_1';
    const id = await admin().createWebhook(FAKE_SHOP_DOMAIN, accessToken, 'orders/create', uri);
    expect(shopify.subscriptions(FAKE_SHOP_DOMAIN)).toContainEqual({ id, topic: 'orders/create', uri });
    expect(await refusal(admin().createWebhook(FAKE_SHOP_DOMAIN, accessToken, 'orders/create', uri))).toMatchObject({
      code: 'shopify_rejected',
      message: 'Shopify refused the orders/create webhook: Address for this topic has already been taken',
    });
    expect(await refusal(admin().createScriptTag(FAKE_SHOP_DOMAIN, accessToken, 'https://signalbox.test.example/js/v1/signalbox.js?key=pk_1'))).toMatchObject({
      code: 'shopify_rejected',
      message: expect.stringContaining('Required access: `write_script_tags` access scope'),
    });
    await admin().deleteWebhook(FAKE_SHOP_DOMAIN, accessToken, id);
    await expect(admin().deleteWebhook(FAKE_SHOP_DOMAIN, accessToken, id)).resolves.toBeUndefined();
    expect(await refusal(admin().deleteWebhook(FAKE_SHOP_DOMAIN, 'shpat_not-a-token', id))).toMatchObject({ code: 'token_invalid' });
  });

  it('calls no shop on an internal address unless the operator allows it', async () => {
    const refusing = createShopifyAdmin({ shopUrl: shopify.shopUrl, targets: { internalAddresses: 'refuse' } });
    expect(await refusal(refusing.exchangeCode(FAKE_SHOP_DOMAIN, { ...credentials, code: 'c' }))).toEqual({
      code: 'shop_invalid',
      message: 'shop: its address must reach a public address: 127.0.0.1 is a loopback address, which this server does not call',
    });
  });
});
