import type { FastifyInstance } from 'fastify';
import { LosslessNumber } from 'lossless-json';
import { shopifyDelivery, shopifyFixture, sign, type ShopifyDeliveryRequest } from '../devstack/shopify-fake';
import type { ConversionRow } from '../db/types';
import type { Workspace } from '../db/repositories/workspaces';
import { closeAll } from './helpers/close-all';
import { ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { createShopifySource, postShopifyToApp } from './helpers/shopify-source';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * Issues 43 and 46: what a Shopify source does with deliveries signed as Shopify signs them but that are not plain
 * orders: one too large for a message of `/v1/batch`, one body replayed under new webhook IDs and other topics, an
 * empty or unreadable body. Each is answered 200 (Shopify retries anything else, then drops it); what can be stored
 * reaches the fake TikTok once.
 */
const SHOP_KEY = 'e4a1f00dfeedfacecafe0ddba11e4a1f00dfeedfacecafe0ddba11e4a1f00df';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let app: FastifyInstance;
let workspace: Workspace;
let orderNumber = 5_000_000_000_000 + (Date.now() % 1_000_000_000);

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app } = buildTestApp(pipeline.database.db, { repos: pipeline.repos, recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions }));
  workspace = await pipeline.workspace({ rules: [{ sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', valueSource: 'order_total' }] });
});

afterAll(() =>
  closeAll(
    () => app?.close(),
    () => pipeline?.close(),
  ),
);

const shopifySource = (name: string) => createShopifySource(app, workspace.id, name, SHOP_KEY);
const post = (path: string, delivery: ShopifyDeliveryRequest) => postShopifyToApp(app, path, delivery);

/** The fixture's order under a new ID, placed now after a TikTok click (in its cart's attributes), with `lines` line items of one unit at 1.00 each. */
function order(lines: number): Record<string, unknown> {
  const resource = shopifyFixture('orders/create');
  const [template] = resource.line_items as Record<string, unknown>[];
  const placed = new Date().toISOString();
  orderNumber += 1;
  const total = (lines + 5).toFixed(2);
  return Object.assign(resource, {
    id: new LosslessNumber(String(orderNumber)),
    created_at: placed,
    processed_at: placed,
    updated_at: placed,
    subtotal_price: lines.toFixed(2),
    total_line_items_price: lines.toFixed(2),
    total_price: total,
    current_total_price: total,
    note_attributes: [{ name: 'ttclid', value: ttclid() }],
    line_items: Array.from({ length: lines }, (_, index) => ({
      ...template,
      id: new LosslessNumber(String(1_000_000 + index)),
      product_id: new LosslessNumber(String(7_000_000_000 + index)),
      variant_id: new LosslessNumber(String(8_000_000_000 + index)),
      sku: `SKU-${index + 1}`,
      title: `Seed packet no. ${index + 1}`,
      name: `Seed packet no. ${index + 1}`,
      price: '1.00',
      quantity: 1,
    })),
  });
}

const events = (where: Record<string, string>) => pipeline.database.db('events').where({ workspace_id: workspace.id, ...where });

async function until<T>(what: string, find: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

async function delivered(eventId: string): Promise<ConversionRow> {
  const row = await until(`the conversion ${eventId}`, async () => (await pipeline.database.db('conversions').where({ workspace_id: workspace.id, event_id: eventId }).first()) as ConversionRow | undefined);
  return pipeline.settled(row);
}

describe('Shopify deliveries a message of /v1/batch could not hold, or that are not what they say', () => {
  let source: { id: string; path: string };
  beforeAll(async () => {
    source = await shopifySource('Seed shop');
  });

  it('stores an order of 500 lines, signed as Shopify signs it, and sends it to TikTok once with its 500 contents', async () => {
    const large = order(500);
    const delivery = shopifyDelivery('orders/create', large, SHOP_KEY);
    // Far above the 32 KiB a message of /v1/batch may hold (an order of 250 lines, 149 KB, was refused with 413).
    expect(Buffer.byteLength(delivery.body)).toBeGreaterThan(250_000);
    expect(await post(source.path, delivery)).toEqual({ status: 200, body: { success: true } });

    const orderId = String(large.id);
    const [stored] = await events({ message_id: `${source.id}:orders/create:${orderId}` });
    expect(stored).toMatchObject({ event_name: 'Order Completed' });
    expect((stored.message as { properties: { products: unknown[] } }).properties.products).toHaveLength(500);

    expect(await delivered(orderId)).toMatchObject({ status: 'delivered', tiktok_event: 'CompletePayment', value: 505, currency: 'USD' });
    const sent = (await pipeline.fake.receivedEvents()).events.filter((event) => event.eventId === orderId);
    expect(sent).toHaveLength(1);
    const { properties } = sent[0]?.payload as { properties: { value: number; contents: { content_id: string; quantity: number }[] } };
    expect(properties.value).toBe(505);
    expect(properties.contents).toHaveLength(500);
    expect(properties.contents[499]).toMatchObject({ content_id: String(7_000_000_000 + 499), quantity: 1 });
  });

  it('stores one signed order body once, replayed under new webhook IDs as orders/create, checkouts/create and refunds/create; orders/paid still folds into its one conversion', async () => {
    const placed = order(2);
    const orderId = String(placed.id);
    expect(await post(source.path, shopifyDelivery('orders/create', placed, SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
    await delivered(orderId);

    // The same signed body, each time under a webhook ID of its own (which the signature does not cover).
    expect(await post(source.path, shopifyDelivery('orders/create', placed, SHOP_KEY))).toEqual({ status: 200, body: { success: true, duplicates: { messages: 1, conversions: 0 } } });
    for (const [topic, carries] of [
      ['checkouts/create', 'a checkout'],
      ['refunds/create', 'a refund'],
    ]) {
      expect(await post(source.path, shopifyDelivery(topic as string, placed, SHOP_KEY))).toEqual({
        status: 200,
        body: {
          success: true,
          stored: 0,
          note: `not stored: X-Shopify-Topic ${topic} carries ${carries}, and this body is an order: a signed body posted again under another topic (acknowledged, so that Shopify does not send it again)`,
        },
      });
    }
    expect(await events({ event_name: 'Checkout Started' })).toEqual([]);
    expect(await events({ event_name: 'Order Refunded' })).toEqual([]);
    expect(await events({ message_id: `${source.id}:orders/create:${orderId}` })).toHaveLength(1);
    const refused = await until('the refusals in the debugger', async () => {
      const rows = await pipeline.database.db('ingest_refusals').where({ workspace_id: workspace.id, reason: 'shopify_not_its_topic' });
      return rows.length === 2 ? rows : undefined;
    });
    expect(refused.map((row) => [row.status, row.error, row.path])).toEqual([
      [200, 'not_stored', source.path],
      [200, 'not_stored', source.path],
    ]);

    // Shopify's own orders/paid of the same order: a message of its own, and no second conversion.
    expect(await post(source.path, shopifyDelivery('orders/paid', placed, SHOP_KEY))).toEqual({ status: 200, body: { success: true, duplicates: { messages: 0, conversions: 1 } } });
    expect(await events({ message_id: `${source.id}:orders/paid:${orderId}` })).toHaveLength(1);
    expect(await pipeline.database.db('conversions').where({ workspace_id: workspace.id, event_id: orderId })).toHaveLength(1);
    expect((await pipeline.fake.receivedEvents()).events.filter((event) => event.eventId === orderId)).toHaveLength(1);
  });
});

describe('a signed Shopify delivery with nothing readable in it', () => {
  it('is acknowledged with 200 (never retried into Shopify’s failure count), stores nothing, and is recorded as refused with why, in the debugger and on the source', async () => {
    const source = await shopifySource('Unreadable shop');
    const signedBody = (body: string, topic = 'orders/create'): ShopifyDeliveryRequest => shopifyDelivery(topic, body, SHOP_KEY);
    const before = await events({});

    expect(await post(source.path, signedBody(''))).toEqual({
      status: 200,
      body: { success: true, stored: 0, note: 'not stored: the body is empty (acknowledged, so that Shopify does not send it again)' },
    });
    const xml = '<?xml version="1.0" encoding="UTF-8"?><order><id type="integer">450789469</id></order>';
    const notJson = await post(source.path, signedBody(xml));
    expect(notJson).toMatchObject({ status: 200, body: { success: true, stored: 0, note: expect.stringMatching(/^not stored: body is not valid JSON: .*line 1, column 1\)/) } });
    expect(await post(source.path, signedBody('[1, 2]'))).toMatchObject({ status: 200, body: { stored: 0, note: expect.stringContaining('the body is JSON but not an object') } });
    // The signature is still checked first: an empty body signed with another key is refused.
    const unsigned = await app.inject({ method: 'POST', url: source.path, headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create', 'x-shopify-hmac-sha256': sign.shopify('', 'another key entirely') } });
    expect(unsigned.statusCode).toBe(401);
    expect(await events({})).toEqual(before);

    const refusals = await until('the refusals in the debugger', async () => {
      const rows = await pipeline.database.db('ingest_refusals').where({ workspace_id: workspace.id, path: source.path }).orderBy('id');
      return rows.length === 4 ? rows : undefined;
    });
    expect(refusals.map((row) => [row.status, row.error, row.reason])).toEqual([
      [200, 'not_stored', 'shopify_unreadable'],
      [200, 'not_stored', 'shopify_unreadable'],
      [200, 'not_stored', 'shopify_unreadable'],
      [401, 'unauthorized', null],
    ]);
    expect(refusals[0]?.message).toBe('not stored: the body is empty (acknowledged, so that Shopify does not send it again)');

    // The source's last refusal is the last of the four (the first of a second is shown at once, the newest when the
    // second ends): the forged one.
    const listed = await until('the last refusal on the source', async () => {
      const answer = await app.inject({ method: 'GET', url: `/admin/workspaces/${workspace.id}/sources`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      const found = (answer.json().sources as { id: string; lastRefusal: { status: number; message: string } | null }[]).find((row) => row.id === source.id);
      return found?.lastRefusal?.status === 401 ? found.lastRefusal : undefined;
    });
    expect(listed.message).toMatch(/^X-Shopify-Hmac-Sha256 does not match the body signed with this source's secret/);
  });
});
