import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LosslessNumber } from 'lossless-json';
import { shopifyDelivery, shopifyFixture, sign, type ShopifyDeliveryRequest } from '../devstack/shopify-fake';
import type { ConversionRow } from '../db/types';
import type { Workspace } from '../db/repositories/workspaces';
import { closeAll } from './helpers/close-all';
import { landing, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { createShopifySource, postShopifyToApp } from './helpers/shopify-source';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * Issue 46: Shopify's mandatory privacy webhooks to a Shopify source, signed as Shopify signs them (base64
 * HMAC-SHA256 of the raw body with the shop's key), with the bodies shopify.dev documents ("Privacy law compliance").
 * A bad signature is answered 401 and does nothing; a signed request is done and answered 200, once: a repeat does
 * nothing more. customers/redact erases the customer through the erasure (logged as any erasure), shop/redact removes
 * what that source stored and nothing of other sources or workspaces, customers/data_request is recorded for the owner.
 */
const SHOP_KEY = 'a11ce5c0ffee0ddba11a11ce5c0ffee0ddba11a11ce5c0ffee0ddba11a11ce5c';
const SHOP = 'fern-shop.myshopify.com';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let app: FastifyInstance;
let serial = Date.now() % 1_000_000_000;

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app } = buildTestApp(pipeline.database.db, { repos: pipeline.repos, recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions }));
});

afterAll(() =>
  closeAll(
    () => app?.close(),
    () => pipeline?.close(),
  ),
);

const db = () => pipeline.database.db;
const rules = [{ sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', valueSource: 'order_total' as const }];

const shopifySource = (workspace: Workspace, name: string) => createShopifySource(app, workspace.id, name, SHOP_KEY);
const post = (path: string, delivery: ShopifyDeliveryRequest) => postShopifyToApp(app, path, delivery);

/** The same delivery signed with another key: what Shopify's review sends to check for a 401. */
const badlySigned = (delivery: ShopifyDeliveryRequest): ShopifyDeliveryRequest => ({ ...delivery, headers: { ...delivery.headers, 'x-shopify-hmac-sha256': sign.shopify(delivery.body, 'not the shop key') } });

interface Customer {
  id: string;
  email: string;
  phone: string;
}

function customer(): Customer {
  serial += 1;
  return { id: String(6_000_000_000_000 + serial), email: `buyer-${serial}@example.com`, phone: `+1 415 555 ${String(serial % 10_000).padStart(4, '0')}` };
}

/** customers/create of this customer (the fixture's, under their ID and email). */
const customerCreated = (person: Customer) => Object.assign(shopifyFixture('customers/create'), { id: new LosslessNumber(person.id), email: person.email, updated_at: new Date().toISOString() });

/** An order of this customer placed now, after a TikTok click, by the tag's visitor `anonymousId` (written into the cart). */
function orderOf(person: Customer, anonymousId: string): Record<string, unknown> {
  const resource = shopifyFixture('orders/create');
  serial += 1;
  const placed = new Date().toISOString();
  return Object.assign(resource, {
    id: new LosslessNumber(String(5_100_000_000_000 + serial)),
    created_at: placed,
    processed_at: placed,
    updated_at: placed,
    email: person.email,
    contact_email: person.email,
    cart_token: `cart-${serial}`,
    customer: { ...(resource.customer as object), id: new LosslessNumber(person.id), email: person.email },
    note_attributes: [
      { name: 'ttclid', value: ttclid() },
      { name: 'sbx_aid', value: anonymousId },
    ],
  });
}

/** The bodies shopify.dev documents for the three topics (values ours). */
const redactBody = (person: Customer, orders: unknown[]) => ({ shop_id: 954889, shop_domain: SHOP, customer: { id: new LosslessNumber(person.id), email: person.email, phone: person.phone }, orders_to_redact: orders });
const dataRequestBody = (person: Customer, orders: unknown[], requestId: number) => ({
  shop_id: 954889,
  shop_domain: SHOP,
  orders_requested: orders,
  customer: { id: new LosslessNumber(person.id), email: person.email, phone: person.phone },
  data_request: { id: requestId },
});
const shopRedactBody = { shop_id: 954889, shop_domain: SHOP };

async function delivered(workspace: Workspace, eventId: string): Promise<ConversionRow> {
  for (const deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const row = (await db()('conversions').where({ workspace_id: workspace.id, event_id: eventId }).first()) as ConversionRow | undefined;
    if (row !== undefined) return pipeline.settled(row);
    if (Date.now() > deadline) throw new Error(`no conversion ${eventId}`);
  }
}

const eventsOf = (workspace: Workspace, where: Record<string, unknown>) => db()('events').where({ workspace_id: workspace.id, ...where });
const sourceEvents = (workspace: Workspace, sourceId: string) => db()('events').where({ workspace_id: workspace.id }).whereRaw('starts_with(message_id, ?)', [`${sourceId}:`]).orderBy('id');
const erasuresOf = (workspace: Workspace) => db()('erasure_requests').where({ workspace_id: workspace.id });
const requestsOf = (sourceId: string) => db()('shopify_privacy_requests').where({ source_id: sourceId }).orderBy('received_at');

describe('customers/redact', () => {
  it('erases the customer through the erasure (their events, visits, click and links; their conversion anonymised), logged as any erasure; a bad signature erases nothing, a repeat nothing more', async () => {
    const workspace = await pipeline.workspace({ rules });
    const source = await shopifySource(workspace, 'Fern shop');
    const [leaving, staying] = [customer(), customer()];
    const visitor = `aid-${randomUUID()}`;
    await pipeline.ingest(workspace, [landing(visitor, ttclid(), new Date())]);
    expect(await post(source.path, shopifyDelivery('customers/create', customerCreated(leaving), SHOP_KEY))).toMatchObject({ status: 200 });
    const order = orderOf(leaving, visitor);
    const other = orderOf(staying, `aid-${randomUUID()}`);
    for (const placed of [order, other]) expect(await post(source.path, shopifyDelivery('orders/create', placed, SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
    expect(await delivered(workspace, String(order.id))).toMatchObject({ status: 'delivered', user_id: leaving.id, click_anonymous_id: visitor });

    const redact = shopifyDelivery('customers/redact', redactBody(leaving, [order.id]), SHOP_KEY);
    expect((await post(source.path, badlySigned(redact))).status).toBe(401);
    expect(await eventsOf(workspace, { user_id: leaving.id })).toHaveLength(2);
    expect(await erasuresOf(workspace)).toHaveLength(0);

    expect(await post(source.path, redact)).toEqual({ status: 200, body: { success: true, stored: 0, note: 'customers/redact: the customer is erased' } });
    expect(await eventsOf(workspace, { user_id: leaving.id })).toEqual([]);
    expect(await eventsOf(workspace, { anonymous_id: visitor })).toEqual([]);
    // The order's event is kept for its conversion, without the person; the conversion keeps its value, not who.
    const [orderEvent] = await eventsOf(workspace, { message_id: `${source.id}:orders/create:${String(order.id)}` });
    expect(orderEvent).toMatchObject({ user_id: null, anonymous_id: null, stripped_at: expect.any(Date) });
    expect(JSON.stringify(orderEvent.message)).not.toContain(leaving.email);
    const conversion = await db()('conversions').where({ workspace_id: workspace.id, event_id: String(order.id) }).first();
    expect(conversion).toMatchObject({ status: 'delivered', ttclid: null, user_id: null, anonymous_id: null, click_anonymous_id: null, match_keys: null });
    expect(await db()('visitors').where({ workspace_id: workspace.id, anonymous_id: visitor })).toEqual([]);
    expect(await db()('identity_links').where({ workspace_id: workspace.id, from_kind: 'user_id', from_value: leaving.id })).toEqual([]);
    // The other customer is untouched.
    expect(await eventsOf(workspace, { user_id: staying.id })).toHaveLength(1);

    const erasures = await app.inject({ method: 'GET', url: `/admin/workspaces/${workspace.id}/erasures`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const [logged, ...more] = erasures.json().erasures as { actor: string; erased: Record<string, number>; identifiers: { kind: string }[] }[];
    expect(more).toEqual([]);
    expect(logged).toMatchObject({ actor: `shopify:${SHOP}`, erased: { eventsDeleted: 2, eventsStripped: 1, conversionsAnonymised: 1 } });
    expect(logged?.identifiers.map((node) => node.kind).sort()).toEqual(['anonymous_id', 'email_sha256', 'phone_sha256', 'user_id']);
    expect(await eventsOf(workspace, { event_name: 'Shopify customers/redact' })).toEqual([]);

    // Shopify sends it again (a retry): answered 200, nothing more erased or logged.
    const again = await post(source.path, shopifyDelivery('customers/redact', redactBody(leaving, [order.id]), SHOP_KEY));
    expect(again).toMatchObject({ status: 200, body: { success: true, stored: 0, note: expect.stringMatching(/^customers\/redact: already done: the same request was received on \d{4}-/) } });
    expect(await erasuresOf(workspace)).toHaveLength(1);
    expect(await requestsOf(source.id)).toHaveLength(1);
  });
});

describe('customers/data_request', () => {
  it('is recorded for the owner with whom to answer, once; a bad signature records nothing; erasing the customer later takes their name off it', async () => {
    const workspace = await pipeline.workspace({ rules });
    const source = await shopifySource(workspace, 'Fern shop');
    const asking = customer();
    const body = dataRequestBody(asking, [new LosslessNumber('5100000000001'), new LosslessNumber('5100000000002')], 9999);

    expect((await post(source.path, badlySigned(shopifyDelivery('customers/data_request', body, SHOP_KEY)))).status).toBe(401);
    expect(await requestsOf(source.id)).toEqual([]);

    const answer = await post(source.path, shopifyDelivery('customers/data_request', body, SHOP_KEY));
    expect(answer).toEqual({ status: 200, body: { success: true, stored: 0, note: 'customers/data_request: recorded for the workspace owner, who sends the customer their data' } });
    expect(await post(source.path, shopifyDelivery('customers/data_request', body, SHOP_KEY))).toMatchObject({ status: 200, body: { note: expect.stringContaining('already done') } });
    const [recorded, ...more] = await requestsOf(source.id);
    expect(more).toEqual([]);
    expect(recorded).toMatchObject({
      workspace_id: workspace.id,
      topic: 'customers/data_request',
      shop_domain: SHOP,
      customer: { userId: asking.id, email: asking.email, phone: asking.phone },
      orders: ['5100000000001', '5100000000002'],
      data_request_id: '9999',
    });
    expect(await eventsOf(workspace, {})).toEqual([]);

    expect(await post(source.path, shopifyDelivery('customers/redact', redactBody(asking, []), SHOP_KEY))).toMatchObject({ status: 200, body: { note: 'customers/redact: the customer is erased' } });
    const [afterErasure] = await requestsOf(source.id);
    expect(afterErasure).toMatchObject({ id: recorded.id, customer: null, orders: null });
  });

  it('that names no customer is acknowledged (200) and recorded as refused, with why', async () => {
    const workspace = await pipeline.workspace({ rules });
    const source = await shopifySource(workspace, 'Fern shop');
    const answer = await post(source.path, shopifyDelivery('customers/data_request', { shop_id: 954889, shop_domain: SHOP, customer: {}, orders_requested: [] }, SHOP_KEY));
    expect(answer).toEqual({
      status: 200,
      body: { success: true, stored: 0, note: 'not stored: customers/data_request names no customer: its customer has no id, email or phone (acknowledged, so that Shopify does not send it again)' },
    });
    expect(await requestsOf(source.id)).toEqual([]);
  });
});

describe('shop/redact', () => {
  it("removes what that source stored from the shop (its events, carts, the links and Shopify's own visitor IDs; its conversions anonymised), not the tag's page views, another source's or another workspace's", async () => {
    const workspace = await pipeline.workspace({ rules });
    const elsewhere = await pipeline.workspace({ rules });
    const [closing, staying, inOtherWorkspace] = [await shopifySource(workspace, 'Closing shop'), await shopifySource(workspace, 'Staying shop'), await shopifySource(elsewhere, 'Fern shop')];
    const buyer = customer();
    const visitor = `aid-${randomUUID()}`;
    await pipeline.ingest(workspace, [landing(visitor, ttclid(), new Date())]);
    const order = orderOf(buyer, visitor);
    expect(await post(closing.path, shopifyDelivery('customers/create', customerCreated(buyer), SHOP_KEY))).toMatchObject({ status: 200 });
    expect(await post(closing.path, shopifyDelivery('orders/create', order, SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
    const cart = Object.assign(shopifyFixture('carts/update'), { token: `cart-${randomUUID()}`, updated_at: new Date().toISOString() });
    expect(await post(closing.path, shopifyDelivery('carts/update', cart, SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
    expect(await db()('shopify_carts').where({ source_id: closing.id })).toHaveLength(1);
    const stayingOrder = orderOf(customer(), `aid-${randomUUID()}`);
    expect(await post(staying.path, shopifyDelivery('orders/create', stayingOrder, SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
    // The same customer's order in another workspace's source.
    expect(await post(inOtherWorkspace.path, shopifyDelivery('orders/create', orderOf(buyer, `aid-${randomUUID()}`), SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
    await delivered(workspace, String(order.id));
    const storedBefore = await sourceEvents(workspace, closing.id);
    expect(storedBefore.length).toBeGreaterThanOrEqual(3);

    const redact = shopifyDelivery('shop/redact', shopRedactBody, SHOP_KEY);
    expect((await post(closing.path, badlySigned(redact))).status).toBe(401);
    expect(await sourceEvents(workspace, closing.id)).toHaveLength(storedBefore.length);

    expect(await post(closing.path, redact)).toEqual({ status: 200, body: { success: true, stored: 0, note: "shop/redact: the shop's data stored by this source is removed" } });
    const left = await sourceEvents(workspace, closing.id);
    // Only the order's event stays, for its conversion, without the person.
    expect(left.map((event) => [event.message_id, event.user_id, event.anonymous_id, event.stripped_at !== null])).toEqual([[`${closing.id}:orders/create:${String(order.id)}`, null, null, true]]);
    expect(await db()('conversions').where({ workspace_id: workspace.id, event_id: String(order.id) }).first()).toMatchObject({ status: 'delivered', ttclid: null, user_id: null, click_anonymous_id: null });
    expect(await db()('shopify_carts').where({ source_id: closing.id })).toEqual([]);
    expect(await db()('identity_links').where({ workspace_id: workspace.id, from_kind: 'user_id', from_value: buyer.id })).toEqual([]);
    expect(await db()('identity_links').where({ workspace_id: workspace.id, from_kind: 'anonymous_id', from_value: visitor })).toEqual([]);
    // The storefront tag's page view and visitor stay; so do the other source's and the other workspace's.
    expect(await eventsOf(workspace, { anonymous_id: visitor, type: 'page' })).toHaveLength(1);
    expect(await db()('visitors').where({ workspace_id: workspace.id, anonymous_id: visitor })).toHaveLength(1);
    expect(await sourceEvents(workspace, staying.id)).toHaveLength(1);
    expect(await sourceEvents(elsewhere, inOtherWorkspace.id)).toHaveLength(1);
    expect(await db()('identity_links').where({ workspace_id: elsewhere.id, from_kind: 'user_id', from_value: buyer.id }).first()).toBeDefined();

    const [recorded] = await requestsOf(closing.id);
    expect(recorded).toMatchObject({ topic: 'shop/redact', shop_domain: SHOP, removed: { eventsDeleted: storedBefore.length - 1, eventsStripped: 1, conversionsAnonymised: 1, carts: 1 } });
    const [logged] = await db()('change_log').where({ workspace_id: workspace.id, action: 'source.shop_redact' });
    expect(logged).toMatchObject({ actor: `shopify:${SHOP}`, target: closing.id, after: { name: 'Closing shop', shop: SHOP } });

    expect(await post(closing.path, shopifyDelivery('shop/redact', shopRedactBody, SHOP_KEY))).toMatchObject({ status: 200, body: { note: expect.stringContaining('shop/redact: already done') } });
    expect(await requestsOf(closing.id)).toHaveLength(1);
    expect(await db()('change_log').where({ workspace_id: workspace.id, action: 'source.shop_redact' })).toHaveLength(1);
  });
});
