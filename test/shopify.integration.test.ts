import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { loadTrackingScript } from '../api/ingest/tracking-script';
import type { ConversionRow } from '../db/types';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { postShopifyDelivery, shopifyDelivery, shopifyFixture, sign, startFakeStorefront, STOREFRONT_PRODUCTS, type FakeStorefront } from '../devstack/shopify-fake';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { sha256Hex } from '../domain/hashing';
import { buildTrackingScript } from '../web/build';
import { closeAll } from './helpers/close-all';
import { runAgainst } from './helpers/cli';
import { ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { buildTestApp } from './helpers/test-app';
import { chromiumLaunch } from './helpers/chromium';

/** The key Shopify shows under Settings → Notifications → Webhooks ("Your webhooks will be signed with …"). */
const SHOP_KEY = 'd1e5c0ffee0ddba11d1e5c0ffee0ddba11d1e5c0ffee0ddba11d1e5c0ffee0d';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let ingest: FastifyInstance;
let ingestPort: ReservedPort;
let ingestUrl: string;
let storefront: FakeStorefront;
let browser: BrowserContext;
let page: Page;
let workspaceId: string;
let webhookUrl: string;
let browserKey = '';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-shopify-'));
const SCREENSHOTS = path.join(os.tmpdir(), 'signalbox-shopify-screenshots');

async function signalbox(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runAgainst(ingestUrl, args);
  if (code !== 0) throw new Error(`signalbox ${args.join(' ')} failed: ${stderr}`);
  return stdout;
}

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  const built = await buildTrackingScript(path.join(scratch, 'signalbox.js'));
  // PUBLIC_URL is where this server listens: the webhook URL the CLI prints is the one Shopify would post to.
  ingestPort = await reservePort();
  ingestUrl = `http://127.0.0.1:${ingestPort.port}`;
  ({ app: ingest } = buildTestApp(pipeline.database.db, {
    repos: pipeline.repos,
    recordBatch: pipeline.recordBatch,
    startConversions: pipeline.startConversions,
    trackingScript: loadTrackingScript(built.outfile),
    publicUrl: ingestUrl,
  }));
  await ingest.listen({ port: ingestPort.port, host: '127.0.0.1' });
  storefront = await startFakeStorefront({ head: () => `<script async src="${ingestUrl}/js/v1/signalbox.js" data-key="${browserKey}"></script>` });

  // docs/shopify-and-webhooks.md's Shopify section, step by step.
  workspaceId = /^ID: +(ws_\S+)$/m.exec(await signalbox('workspaces', 'create', 'Fern shop'))?.[1] as string;
  await signalbox('rules', 'put', workspaceId, 'Order Completed');
  await signalbox('tiktok', 'set', workspaceId, '--token', FAKE_TIKTOK_ACCESS_TOKEN, '--pixel', FAKE_TIKTOK_PIXEL_CODE);
  await signalbox('settings', 'set', workspaceId, '--allowed-origins', storefront.origin);
  browserKey = /^Key: +(pk_\S+)$/m.exec(await signalbox('keys', 'create', workspaceId, '--name', 'theme', '--browser'))?.[1] as string;
  const created = await signalbox('sources', 'create', workspaceId, '--shopify', '--name', 'Fern shop', '--secret', SHOP_KEY);
  webhookUrl = /^Webhook URL: +(\S+)$/m.exec(created)?.[1] as string;

  browser = await chromium.launchPersistentContext(path.join(scratch, 'profile'), { ...chromiumLaunch(), userAgent: IPHONE });
  page = browser.pages()[0] ?? (await browser.newPage());
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(() =>
  closeAll(
    () => browser?.close(),
    () => storefront?.close(),
    () => ingest?.close(),
    () => ingestPort?.release(),
    () => pipeline?.close(),
    () => rmSync(scratch, { recursive: true, force: true }),
  ),
);

async function until<T>(what: string, find: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

const cartWrites = () => storefront.requests.filter((r) => r.method === 'POST' && r.path === '/cart/update.js');
const eventsOf = (messageId: string) => pipeline.database.db('events').where({ workspace_id: workspaceId, message_id: messageId });
/** A delivery's message ID: the source, the topic and the resource (and its `updated_at` for a topic that recurs), not `X-Shopify-Webhook-Id`. */
const messageIdOf = (topic: string, resource: string) => `${webhookUrl.split('/').at(-1)}:${topic}:${resource}`;

async function settledConversion(eventId: string): Promise<ConversionRow> {
  const row = await until(`the conversion ${eventId}`, async () => (await pipeline.database.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).first()) as ConversionRow | undefined);
  return pipeline.settled(row);
}

describe('a Shopify shop: the tag in the theme, the webhook in the notification settings', () => {
  let anonymousId: string;
  let click: string;
  let order: Record<string, unknown>;
  let delivery: ReturnType<typeof shopifyDelivery>;

  it('prints a webhook URL built from PUBLIC_URL, and lists the source without its secret', async () => {
    expect(webhookUrl).toMatch(new RegExp(`^${ingestUrl}/v1/webhooks/src_[0-9a-f]{16}$`));
    const listed = await signalbox('sources', 'list', workspaceId);
    expect(listed).toContain(webhookUrl);
    expect(listed).not.toContain(SHOP_KEY);
    const [row] = await pipeline.database.db('webhook_sources').where({ workspace_id: workspaceId });
    expect(row.signing_secret_ciphertext).toMatch(/^v1\./);
    expect(row.signing_secret_ciphertext).not.toContain(SHOP_KEY);
  });

  it('writes the visitor and the TikTok click into the cart through Shopify’s cart API, once, as the storefront received it', async () => {
    click = ttclid();
    await page.goto(`${storefront.origin}/products/aviator-sunglasses?ttclid=${click}`);
    await until('the cart attributes write', () => cartWrites()[0]);
    anonymousId = await page.evaluate(() => (globalThis as unknown as { signalbox: { getAnonymousId(): string } }).signalbox.getAnonymousId());
    const reads = storefront.requests.filter((r) => r.path === '/cart.js');
    expect(reads.map((r) => r.method)).toEqual(['GET']);
    expect(cartWrites()).toEqual([{ method: 'POST', path: '/cart/update.js', contentType: 'application/json', body: JSON.stringify({ attributes: { sbx_aid: anonymousId, ttclid: click } }) }]);

    // Another page: the cart holds them already, so it is only read.
    await page.goto(`${storefront.origin}/collections/all`);
    await until('the second cart read', () => storefront.requests.filter((r) => r.path === '/cart.js')[1]);
    await page.getByRole('button', { name: 'Add Mid-century lounger' }).click();
    await page.getByText('Added: Mid-century lounger').waitFor();
    await page.getByRole('button', { name: 'Add Mid-century lounger' }).click();
    await page.getByRole('button', { name: 'Add Aviator sunglasses' }).click();
    await page.getByText('Added: Aviator sunglasses').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'storefront.png') });
    expect(cartWrites()).toHaveLength(1);
    const cartToken = /cart=([^;]+)/.exec((await browser.cookies(storefront.origin)).map((c) => `${c.name}=${c.value}`).join(';'))?.[1] as string;
    await until('three items in the cart', () => (storefront.cart(cartToken)?.lines.reduce((sum, line) => sum + line.quantity, 0) === 3 ? true : undefined));
    expect(storefront.cart(cartToken)?.attributes).toEqual({ sbx_aid: anonymousId, ttclid: click });
    // The page views with the click reached Signalbox under the same visitor.
    await until('the landing page view', async () => (await pipeline.database.db('clicks').where({ workspace_id: workspaceId, anonymous_id: anonymousId, ttclid: click }).first()) ?? undefined);

    order = storefront.orderOf(cartToken, { email: 'Jon@Example.com', phone: '+1 502-555-0147', ip: '203.0.113.24', userAgent: IPHONE });
    expect(order.note_attributes).toEqual([
      { name: 'sbx_aid', value: anonymousId },
      { name: 'ttclid', value: click },
    ]);
  });

  it('turns the order webhook, signed as Shopify signs it, into a CompletePayment with the order’s value, contents, hashed keys and the click', async () => {
    delivery = shopifyDelivery('orders/create', order, SHOP_KEY);
    expect(await postShopifyDelivery(webhookUrl, delivery)).toEqual({ status: 200, body: { success: true } });
    const orderId = String(order.id);
    const conversion = await settledConversion(orderId);
    expect(conversion).toMatchObject({ status: 'delivered', tiktok_event: 'CompletePayment', value: 403, currency: 'USD', ttclid: click, click_anonymous_id: anonymousId });

    const sent = (await pipeline.fake.receivedEvents()).events.filter((e) => e.eventId === orderId);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.payload).toMatchObject({
      event: 'CompletePayment',
      event_id: orderId,
      user: {
        ttclid: click,
        email: sha256Hex('jon@example.com'),
        phone: sha256Hex('+15025550147'),
        external_id: sha256Hex('115310627314723954'),
        first_name: sha256Hex('steve'),
        last_name: sha256Hex('shipper'),
        city: 'shippington',
        state: 'ky',
        zip_code: sha256Hex('40003'),
        country: 'us',
        ip: '203.0.113.24',
        user_agent: IPHONE,
      },
      properties: {
        value: 403,
        currency: 'USD',
        order_id: orderId,
        content_type: 'product',
        contents: [
          { content_id: STOREFRONT_PRODUCTS[1]?.productId, content_name: 'Mid-century lounger', price: 154, quantity: 2 },
          { content_id: STOREFRONT_PRODUCTS[0]?.productId, content_name: 'Aviator sunglasses', price: 90, quantity: 1 },
        ],
      },
    });
    const [stored] = await eventsOf(messageIdOf('orders/create', orderId));
    expect(stored).toMatchObject({ type: 'track', event_name: 'Order Completed', anonymous_id: anonymousId, user_id: '115310627314723954' });
  });

  it("stores Shopify's retry of the delivery once, and orders/paid of the same order without a second conversion", async () => {
    expect(await postShopifyDelivery(webhookUrl, delivery)).toEqual({ status: 200, body: { success: true, duplicates: { messages: 1, conversions: 0 } } });
    expect(await eventsOf(messageIdOf('orders/create', String(order.id)))).toHaveLength(1);
    const paid = shopifyDelivery('orders/paid', order, SHOP_KEY);
    expect(await postShopifyDelivery(webhookUrl, paid)).toEqual({ status: 200, body: { success: true, duplicates: { messages: 0, conversions: 1 } } });
    expect(await pipeline.database.db('conversions').where({ workspace_id: workspaceId, event_id: String(order.id) })).toHaveLength(1);
    expect((await pipeline.fake.receivedEvents()).events.filter((e) => e.eventId === String(order.id))).toHaveLength(1);
  });

  it('refuses a delivery whose signature does not match, stores nothing of it, and shows why in the debugger and on the source', async () => {
    const forged = shopifyDelivery('orders/create', { ...order, total_price: '4030.00' }, 'not the shop key at all, just a guess');
    const answer = await postShopifyDelivery(webhookUrl, forged);
    expect(answer).toEqual({ status: 401, body: { error: 'unauthorized', message: expect.stringMatching(/^X-Shopify-Hmac-Sha256 does not match the body signed with this source's secret/) } });
    const tampered = { ...delivery, headers: { ...delivery.headers, 'x-shopify-webhook-id': 'tampered-1' }, body: delivery.body.replace('"403.00"', '"4.03"') };
    expect((await postShopifyDelivery(webhookUrl, tampered)).status).toBe(401);
    // Nothing of either was stored: the order's one event holds what Shopify signed.
    expect((await eventsOf(messageIdOf('orders/create', String(order.id)))).map((event) => (event.message as { properties: { total: number } }).properties.total)).toEqual([403]);

    const refusal = await until('the refusal in the debugger', async () => (await pipeline.database.db('ingest_refusals').where({ workspace_id: workspaceId, status: 401 }).first()) ?? undefined);
    expect(refusal).toMatchObject({ error: 'unauthorized', path: new URL(webhookUrl).pathname, message: expect.stringContaining('X-Shopify-Hmac-Sha256 does not match') });
    expect(JSON.stringify(refusal)).not.toContain('4030.00');
    const listed = await until('the refusal on the source', async () => {
      const text = await signalbox('sources', 'list', workspaceId);
      return text.includes('401: X-Shopify-Hmac-Sha256') ? text : undefined;
    });
    expect(listed).toMatch(/ \d{4}-\d\d-\d\dT\S+ +\d{4}-\d\d-\d\dT\S+ 401: X-Shopify-Hmac-Sha256 does not match/);
  });

  it('refuses a delivery after the secret is rotated until Shopify’s key is given again; the change log names both', async () => {
    const sourceId = webhookUrl.split('/').at(-1) as string;
    // A secret Signalbox makes is of no use to Shopify, which signs with its own key: none is shown, and the answer
    // says to give Shopify's.
    const rotated = await signalbox('sources', 'secret', workspaceId, sourceId);
    expect(rotated).not.toMatch(/sbxwh_/);
    expect(rotated).toContain("give this source that key, as its signing secret. Until then Shopify's deliveries are refused.");
    const again = shopifyDelivery('orders/create', order, SHOP_KEY);
    expect((await postShopifyDelivery(webhookUrl, again)).status).toBe(401);
    await signalbox('sources', 'secret', workspaceId, sourceId, '--secret', SHOP_KEY);
    expect((await postShopifyDelivery(webhookUrl, again)).status).toBe(200);
    const logged = await pipeline.database.db('change_log').where({ workspace_id: workspaceId, target: sourceId }).orderBy('id');
    expect(logged.map((entry) => [entry.action, entry.after?.secret ?? null])).toEqual([
      ['source.create', null],
      ['source.secret', 'made by Signalbox'],
      ['source.secret', 'given'],
    ]);
    expect(JSON.stringify(logged)).not.toContain(SHOP_KEY);
  });

  it('answers 200 to a topic it has no name for, storing it as Shopify <topic>; 200 storing nothing for a signed body that is not JSON; 404 for a deleted source', async () => {
    const cancelled = shopifyDelivery('orders/cancelled', order, SHOP_KEY);
    expect((await postShopifyDelivery(webhookUrl, cancelled)).status).toBe(200);
    expect(await eventsOf(messageIdOf('orders/cancelled', String(order.id)))).toEqual([expect.objectContaining({ event_name: 'Shopify orders/cancelled' })]);
    const broken = '{"id": 1,';
    const notJson = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create', 'x-shopify-hmac-sha256': sign.shopify(broken, SHOP_KEY) }, body: broken });
    // Shopify would retry a refusal, then drop it: acknowledged, and recorded as refused.
    expect([notJson.status, await notJson.json()]).toEqual([200, { success: true, stored: 0, note: expect.stringMatching(/^not stored: body is not valid JSON: .*line 1/) }]);

    const other = await signalbox('sources', 'create', workspaceId, '--shopify', '--name', 'Old shop');
    const otherUrl = /^Webhook URL: +(\S+)$/m.exec(other)?.[1] as string;
    await signalbox('sources', 'delete', workspaceId, otherUrl.split('/').at(-1) as string);
    const gone = await postShopifyDelivery(otherUrl, shopifyDelivery('orders/create', order, SHOP_KEY));
    expect(gone).toEqual({ status: 404, body: { error: 'not_found', message: expect.stringMatching(/^webhook source src_\w+ does not exist/) } });
  });

  it('carts/update: a Product Added for what the cart gained, under the visitor the tag wrote into the cart', async () => {
    const cart = shopifyFixture('carts/update');
    cart.note_attributes = [{ name: 'sbx_aid', value: anonymousId }];
    cart.updated_at = new Date().toISOString();
    const first = shopifyDelivery('carts/update', cart, SHOP_KEY);
    expect((await postShopifyDelivery(webhookUrl, first)).status).toBe(200);
    const [added] = await eventsOf(`${messageIdOf('carts/update', `${String(cart.token)}@${String(cart.updated_at)}`)}:1`);
    expect(added).toMatchObject({ event_name: 'Product Added', anonymous_id: anonymousId });
    // The same cart again, unchanged: nothing was added, so it was viewed.
    const later = new Date(Date.parse(String(cart.updated_at)) + 1000).toISOString();
    const unchanged = shopifyDelivery('carts/update', { ...cart, updated_at: later }, SHOP_KEY);
    expect((await postShopifyDelivery(webhookUrl, unchanged)).status).toBe(200);
    expect(await eventsOf(messageIdOf('carts/update', `${String(cart.token)}@${later}`))).toEqual([expect.objectContaining({ event_name: 'Cart Viewed' })]);
  });
});
