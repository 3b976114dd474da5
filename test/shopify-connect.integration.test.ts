import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LosslessNumber } from 'lossless-json';
import { SUBSCRIBED_TOPICS } from '../api/services/shopify-connection';
import type { ConversionRow } from '../db/types';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { FAKE_SHOP_DOMAIN, FAKE_SHOPIFY_API_KEY, FAKE_SHOPIFY_API_SECRET, shopifyDelivery, shopifyFixture, sign, startFakeShopifyAdmin, type FakeShopifyAdmin } from '../devstack/shopify-fake';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { signShopifyQuery } from '../domain/shopify/oauth-query';
import { runAgainst } from './helpers/cli';
import { closeAll } from './helpers/close-all';
import { ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let shopify: FakeShopifyAdmin;
let api: FastifyInstance;
let apiPort: ReservedPort;
let apiUrl: string;
let workspaceId: string;

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${apiUrl}/admin/workspaces/${workspaceId}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What the owner does: Signalbox's authorization URL opened, "Install app" pressed; answers where Shopify sends the browser. */
async function approveInShopify(shop: string): Promise<URL> {
  const started = await admin('POST', '/shopify/oauth/authorize', { shop });
  expect(started.status).toBe(200);
  const url = new URL(started.body.url as string);
  const page = await fetch(url);
  expect(await page.text()).toContain('Install app');
  const approved = await fetch(new URL('authorize', url), { method: 'POST', body: new URLSearchParams([...url.searchParams].filter(([name]) => name !== 'shop')), redirect: 'manual' });
  expect(approved.status).toBe(302);
  return new URL(approved.headers.get('location') as string);
}

const callback = async (url: URL) => {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  // PUBLIC_URL is where this server listens: the webhooks Signalbox subscribes reach it, as Shopify's would, and so
  // does the app's compliance URL, which the app's settings in Shopify name.
  apiPort = await reservePort();
  apiUrl = `http://127.0.0.1:${apiPort.port}`;
  shopify = await startFakeShopifyAdmin({ complianceUri: `${apiUrl}/v1/shopify/compliance` });
  ({ app: api } = buildTestApp(pipeline.database.db, {
    repos: pipeline.repos,
    recordBatch: pipeline.recordBatch,
    startConversions: pipeline.startConversions,
    publicUrl: apiUrl,
    shopifyApp: { apiKey: FAKE_SHOPIFY_API_KEY, secret: FAKE_SHOPIFY_API_SECRET, shopUrl: shopify.shopUrl },
  }));
  await api.listen({ port: apiPort.port, host: '127.0.0.1' });
  const created = await fetch(`${apiUrl}/admin/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Fern shop' }) });
  workspaceId = ((await created.json()) as { id: string }).id;
  expect((await admin('PUT', '/conversion-rules/Order%20Completed', {})).status).toBe(200);
  expect((await admin('PUT', '/tiktok', { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE })).status).toBe(200);
});

afterAll(() =>
  closeAll(
    () => api?.close(),
    () => apiPort?.release(),
    () => shopify?.close(),
    () => pipeline?.close(),
  ),
);

describe('Connect Shopify against the fake Shopify, over HTTP', () => {
  let sourceId: string;

  it("asks Shopify for the app's scopes in the shop the owner named, with Signalbox's callback from PUBLIC_URL", async () => {
    const started = await admin('POST', '/shopify/oauth/authorize', { shop: ' https://Fern-Shop.myshopify.com/ ' });
    const url = new URL(started.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${shopify.url}/shops/${FAKE_SHOP_DOMAIN}/admin/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: FAKE_SHOPIFY_API_KEY, scope: 'read_orders,read_customers,write_script_tags', redirect_uri: `${apiUrl}/oauth/shopify/callback`, state: started.body.state });
    expect(started.body.shopDomain).toBe(FAKE_SHOP_DOMAIN);

    const refused = await admin('POST', '/shopify/oauth/authorize', { shop: 'fern-shop.com' });
    expect(refused).toEqual({ status: 400, body: { error: 'shop_invalid', message: expect.stringMatching(/^shop must be your shop's myshopify.com address/) } });
  });

  it('installs in one approval: the webhooks to a Shopify source and the storefront script with a browser key exist in the shop', async () => {
    const connected = await callback(await approveInShopify(FAKE_SHOP_DOMAIN));
    expect(connected.status).toBe(200);
    const connection = connected.body.connection as { source: { id: string; webhookUrl: string }; subscriptions: { topic: string; id: string }[]; scriptTag: { id: string; src: string }; missingTopics: string[] };
    sourceId = connection.source.id;
    expect(connection.missingTopics).toEqual([]);

    const inShop = shopify.subscriptions(FAKE_SHOP_DOMAIN);
    expect(inShop.map((s) => s.topic)).toEqual([...SUBSCRIBED_TOPICS]);
    for (const subscription of inShop) {
      expect(subscription.uri).toBe(subscription.topic === 'app/uninstalled' ? `${apiUrl}/v1/shopify/app-uninstalled` : `${apiUrl}/v1/webhooks/${sourceId}`);
    }
    expect(connection.subscriptions).toEqual(inShop.map(({ topic, id }) => ({ topic, id })));
    const [script] = shopify.scriptTags(FAKE_SHOP_DOMAIN);
    expect(shopify.scriptTags(FAKE_SHOP_DOMAIN)).toHaveLength(1);
    expect(script?.src).toMatch(new RegExp(`^${apiUrl}/js/v1/signalbox\\.js\\?key=pk_[\\w-]+$`));
    expect(connection.scriptTag).toEqual({ id: script?.id, src: script?.src });
    const key = await pipeline.repos.apiKeys.findActive(new URL(script?.src as string).searchParams.get('key') as string);
    expect(key).toMatchObject({ workspaceId, kind: 'browser', name: `Shopify storefront (${FAKE_SHOP_DOMAIN})` });

    // The storefront's origin is allowed, so the script tag's events are accepted there, and only there.
    const storefront = `https://${FAKE_SHOP_DOMAIN}`;
    expect((await admin('GET', '')).body).toMatchObject({ allowedOrigins: [storefront] });
    const pageView = (origin: string) =>
      fetch(`${apiUrl}/v1/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${new URL(script?.src as string).searchParams.get('key') as string}`, 'content-type': 'application/json', origin },
        body: JSON.stringify({ batch: [{ type: 'page', messageId: `storefront-${randomUUID()}`, anonymousId: `aid-${randomUUID()}` }] }),
      });
    expect((await pageView(storefront)).status).toBe(200);
    expect((await pageView('https://copycat.example')).status).toBe(403);
    const [allowed] = await pipeline.database.db('change_log').where({ workspace_id: workspaceId, action: 'settings.update', target: 'allowedOrigins' });
    expect(allowed).toMatchObject({ before: { allowedOrigins: [] }, after: { allowedOrigins: [storefront] } });

    const [row] = await pipeline.database.db('shopify_connections').where({ workspace_id: workspaceId });
    expect(row).toMatchObject({ shop_domain: FAKE_SHOP_DOMAIN, source_id: sourceId, granted_scopes: ['read_orders', 'read_customers', 'write_script_tags'] });
    expect(row.access_token_ciphertext).toMatch(/^v1\./);
    expect(row.access_token_ciphertext).not.toContain('shpat_');
    expect((await admin('GET', '/shopify')).body).toMatchObject({ configured: true, connection: { shopDomain: FAKE_SHOP_DOMAIN, source: { id: sourceId, webhookUrl: `${apiUrl}/v1/webhooks/${sourceId}` } } });
  });

  it('shows the CLI what was made in the shop, and refuses an address that is not a shop in words', async () => {
    const status = await runAgainst(apiUrl, ['shopify', 'status', workspaceId]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Shop:               ${FAKE_SHOP_DOMAIN}`);
    expect(status.stdout).toContain('Webhooks:           orders/create, orders/paid, checkouts/create, carts/update, refunds/create, customers/create, customers/update, app/uninstalled');
    expect(status.stdout).toContain('Missing webhooks:   none');
    expect(status.stdout).toMatch(new RegExp(`Storefront script: +${apiUrl}/js/v1/signalbox\\.js\\?key=pk_`));
    const refused = await runAgainst(apiUrl, ['shopify', 'connect', workspaceId, '--shop', 'fern-shop.com']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--shop must be your shop's myshopify.com address");
  });

  it('stores a signed orders/create the fake Shopify sends and turns it into a delivered conversion', async () => {
    const click = ttclid();
    const order = shopifyFixture('orders/create');
    const now = new Date().toISOString();
    Object.assign(order, { created_at: now, processed_at: now, updated_at: now, note_attributes: [{ name: 'ttclid', value: click }] });
    const answers = await shopify.deliver(FAKE_SHOP_DOMAIN, 'orders/create', order);
    expect(answers).toEqual([{ uri: `${apiUrl}/v1/webhooks/${sourceId}`, status: 200, body: { success: true } }]);
    const orderId = String(order.id);
    const [stored] = await pipeline.database.db('events').where({ workspace_id: workspaceId, message_id: `${sourceId}:orders/create:${orderId}` });
    expect(stored).toMatchObject({ event_name: 'Order Completed' });
    const conversion = (await pipeline.database.db('conversions').where({ workspace_id: workspaceId, event_id: orderId }).first()) as ConversionRow;
    expect(await pipeline.settled(conversion)).toMatchObject({ status: 'delivered', tiktok_event: 'CompletePayment', ttclid: click });
  });

  it("erases a customer of the connected shop on customers/redact at the app's compliance URL; a bad signature is answered 401 and erases nothing", async () => {
    const person = { id: String(7_000_000_000_000 + (Date.now() % 1_000_000_000)), email: `leaving-${randomUUID()}@example.com`, phone: '+1 415 555 0142' };
    const created = Object.assign(shopifyFixture('customers/create'), { id: new LosslessNumber(person.id), email: person.email, updated_at: new Date().toISOString() });
    expect(await shopify.deliver(FAKE_SHOP_DOMAIN, 'customers/create', created)).toMatchObject([{ status: 200 }]);
    const ofPerson = () => pipeline.database.db('events').where({ workspace_id: workspaceId, user_id: person.id });
    expect(await ofPerson()).toHaveLength(1);

    const body = { shop_id: 548380009, shop_domain: FAKE_SHOP_DOMAIN, customer: person, orders_to_redact: [] };
    const forged = shopifyDelivery('customers/redact', body, FAKE_SHOPIFY_API_SECRET, { shopDomain: FAKE_SHOP_DOMAIN });
    forged.headers['x-shopify-hmac-sha256'] = sign.shopify(forged.body, 'not the app secret');
    expect((await fetch(`${apiUrl}/v1/shopify/compliance`, { method: 'POST', headers: forged.headers, body: forged.body })).status).toBe(401);
    expect(await ofPerson()).toHaveLength(1);

    const answer = await shopify.sendCompliance(FAKE_SHOP_DOMAIN, 'customers/redact', { customer: person, orders_to_redact: [] });
    expect(answer).toEqual({ status: 200, body: { success: true, sources: [sourceId], note: `customers/redact: ${sourceId}: the customer is erased` } });
    expect(await ofPerson()).toEqual([]);
    const [erasure] = await pipeline.database.db('erasure_requests').where({ workspace_id: workspaceId });
    expect(erasure).toMatchObject({ actor: `shopify:${FAKE_SHOP_DOMAIN}` });
    expect(await pipeline.database.db('shopify_privacy_requests').where({ source_id: sourceId, topic: 'customers/redact' })).toHaveLength(1);
  });

  it("refuses a redirect Shopify did not sign, one for another shop than asked, and a state that is not Signalbox's", async () => {
    const genuine = await approveInShopify(FAKE_SHOP_DOMAIN);
    const forged = new URL(genuine);
    forged.searchParams.set('hmac', 'a'.repeat(64));
    expect(await callback(forged)).toEqual({ status: 400, body: { error: 'hmac_invalid', message: expect.stringMatching(/^hmac: this address was not signed by Shopify/) } });

    // Signed with the app's secret (as Shopify would for the other shop), but the state names fern-shop.
    const otherShop = new URL(genuine);
    otherShop.searchParams.delete('hmac');
    otherShop.searchParams.set('shop', 'moss-shop.myshopify.com');
    otherShop.searchParams.set('hmac', signShopifyQuery([...otherShop.searchParams], FAKE_SHOPIFY_API_SECRET));
    expect(await callback(otherShop)).toEqual({ status: 400, body: { error: 'shop_mismatch', message: expect.stringContaining('Shopify approved moss-shop.myshopify.com, but the connection was started for fern-shop.myshopify.com') } });

    const badState = new URL(genuine);
    badState.searchParams.delete('hmac');
    const [payload] = (badState.searchParams.get('state') as string).split('.');
    badState.searchParams.set('state', `${payload}.${'A'.repeat(43)}`);
    badState.searchParams.set('hmac', signShopifyQuery([...badState.searchParams], FAKE_SHOPIFY_API_SECRET));
    expect(await callback(badState)).toEqual({ status: 400, body: { error: 'state_invalid', message: expect.stringMatching(/^state: the signature does not match/) } });

    // None of them changed the connection: the fake still holds exactly what the first approval made.
    expect(shopify.subscriptions(FAKE_SHOP_DOMAIN)).toHaveLength(SUBSCRIBED_TOPICS.length);
    expect(await callback(genuine)).toMatchObject({ status: 200 });
    expect(await callback(genuine)).toEqual({ status: 400, body: { error: 'state_reused', message: expect.stringMatching(/^state: this approval was already used/) } });
    // Connecting again replaced what the first connection made rather than adding to it.
    expect(shopify.subscriptions(FAKE_SHOP_DOMAIN)).toHaveLength(SUBSCRIBED_TOPICS.length);
    expect(shopify.scriptTags(FAKE_SHOP_DOMAIN)).toHaveLength(1);
  });

  it("forgets the shop on Shopify's app/uninstalled and revokes the storefront's key", async () => {
    const key = new URL(shopify.scriptTags(FAKE_SHOP_DOMAIN)[0]?.src as string).searchParams.get('key') as string;
    expect(await shopify.uninstall(FAKE_SHOP_DOMAIN)).toEqual([{ uri: `${apiUrl}/v1/shopify/app-uninstalled`, status: 200 }]);
    expect((await admin('GET', '/shopify')).body).toEqual({ configured: true, connection: null });
    expect(await pipeline.repos.apiKeys.findActive(key)).toBeUndefined();
    const [entry] = await pipeline.database.db('change_log').where({ workspace_id: workspaceId, action: 'shopify.uninstalled' });
    expect(entry).toMatchObject({ actor: `shopify:${FAKE_SHOP_DOMAIN}`, target: 'shopify' });

    const unsigned = await fetch(`${apiUrl}/v1/shopify/app-uninstalled`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-shopify-topic': 'app/uninstalled', 'x-shopify-shop-domain': FAKE_SHOP_DOMAIN, 'x-shopify-hmac-sha256': 'bm90IGEgc2lnbmF0dXJl' }, body: '{}' });
    expect(unsigned.status).toBe(401);
  });

  it("removes what the shop's source stored on shop/redact, which Shopify sends 48 hours after uninstalling; a shop that never connected has nothing to remove", async () => {
    const fromSource = () => pipeline.database.db('events').where({ workspace_id: workspaceId }).whereRaw('starts_with(message_id, ?)', [`${sourceId}:`]);
    expect((await fromSource()).some((event) => event.user_id !== null)).toBe(true);
    const answer = await shopify.sendCompliance(FAKE_SHOP_DOMAIN, 'shop/redact');
    expect(answer).toEqual({ status: 200, body: { success: true, sources: [sourceId], note: `shop/redact: ${sourceId}: the shop's data stored by this source is removed` } });
    // The delivered order's event stays for its conversion, without the person.
    expect((await fromSource()).map((event) => [event.event_name, event.user_id, event.anonymous_id, event.stripped_at !== null])).toEqual([['Order Completed', null, null, true]]);
    const [logged] = await pipeline.database.db('change_log').where({ workspace_id: workspaceId, action: 'source.shop_redact' });
    expect(logged).toMatchObject({ actor: `shopify:${FAKE_SHOP_DOMAIN}`, target: sourceId });

    expect(await shopify.sendCompliance('moss-shop.myshopify.com', 'shop/redact')).toEqual({
      status: 200,
      body: { success: true, sources: [], note: 'shop/redact: Signalbox holds no data of moss-shop.myshopify.com, so there is nothing to do' },
    });
  });

  it('disconnecting removes the webhooks and the script from the shop; the source stays with its history', async () => {
    expect((await callback(await approveInShopify(FAKE_SHOP_DOMAIN))).status).toBe(200);
    expect(shopify.subscriptions(FAKE_SHOP_DOMAIN)).toHaveLength(SUBSCRIBED_TOPICS.length);
    expect(await admin('DELETE', '/shopify')).toEqual({ status: 200, body: { deleted: true } });
    expect(shopify.subscriptions(FAKE_SHOP_DOMAIN)).toEqual([]);
    expect(shopify.scriptTags(FAKE_SHOP_DOMAIN)).toEqual([]);
    expect(await pipeline.database.db('shopify_connections').where({ workspace_id: workspaceId })).toEqual([]);
    expect(await pipeline.database.db('webhook_sources').where({ workspace_id: workspaceId, type: 'shopify' })).toHaveLength(1);
    // Connecting three times added the storefront's origin once; disconnecting leaves it to the owner.
    expect((await admin('GET', '')).body).toMatchObject({ allowedOrigins: [`https://${FAKE_SHOP_DOMAIN}`] });
    expect(await admin('DELETE', '/shopify')).toMatchObject({ status: 404 });
  });
});
