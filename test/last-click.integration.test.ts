import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { postShopifyDelivery, shopifyDelivery, shopifyFixture } from '../devstack/shopify-fake';
import type { Workspace } from '../db/repositories/workspaces';
import type { ConversionRow } from '../db/types';
import { closeAll } from './helpers/close-all';
import { adminCall, asPerson, personIn } from './helpers/console-client';
import { declared } from './helpers/declared-answer';
import { daysAgo, identify, landing, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { buildTestApp } from './helpers/test-app';

/**
 * Last click wins across every place a click is known (issue 43): the converting event's own (a Shopify order's cart
 * attributes or landing page), the converting visitor's, and the visitors linked to the person. Orders arrive through
 * the Shopify webhook, signed as Shopify signs them; what TikTok received is read from the fake TikTok.
 */
const SHOP_KEY = 'c0ffee11c0ffee11c0ffee11c0ffee11c0ffee11c0ffee11c0ffee11c0ffee11';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let app: FastifyInstance;
let workspace: Workspace;
let webhookUrl: string;
let viewer: ReturnType<typeof asPerson>;
let nextOrderId = 7_100_000_000_000_001n;

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  workspace = await pipeline.workspace({ rules: [{ sourceEvent: 'Order Completed', valueSource: 'order_total' }] });
  ({ app } = buildTestApp(pipeline.database.db, { repos: pipeline.repos, recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const source = await adminCall(app, 'POST', `/admin/workspaces/${workspace.id}/sources`, { type: 'shopify', name: 'Fern shop', signingSecret: SHOP_KEY });
  expect(source.statusCode).toBe(201);
  webhookUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/webhooks/${source.json().id}`;
  viewer = asPerson(app, await personIn(app, workspace.id, 'viewer@fern.example', 'viewer'));
});

afterAll(() =>
  closeAll(
    () => app?.close(),
    () => pipeline?.close(),
  ),
);

interface OrderOf {
  customerId: string;
  at: Date;
  /** The tag's cart attributes (`sbx_aid`, `ttclid`); none: the order carries none. */
  attributes?: { anonymousId: string; click: string };
  /** The `landing_site` of the order's visit. */
  landingSite: string;
  /** The checkout's cart; null: an order with no cart token. */
  cartToken: string | null;
}

/**
 * An orders/create delivery of Shopify's own example order, changed to be this customer's (with an email of their own
 * and no phone: the example's would link every customer of the file), and its settled conversion.
 */
async function order({ customerId, at, attributes, landingSite, cartToken }: OrderOf): Promise<ConversionRow> {
  const body = shopifyFixture('orders/create');
  const orderId = String(nextOrderId++);
  const email = `customer-${customerId}@fern.example`;
  const withoutPhone = (address: unknown) => ({ ...(address as object), phone: null });
  Object.assign(body, {
    email,
    contact_email: email,
    phone: null,
    billing_address: withoutPhone(body.billing_address),
    shipping_address: withoutPhone(body.shipping_address),
    id: orderId,
    name: `#${orderId.slice(-4)}`,
    created_at: at.toISOString(),
    processed_at: at.toISOString(),
    landing_site: landingSite,
    cart_token: cartToken,
    note_attributes: attributes === undefined ? [] : [{ name: 'sbx_aid', value: attributes.anonymousId }, { name: 'ttclid', value: attributes.click }],
    customer: { ...(body.customer as object), id: customerId, email, phone: null },
  });
  expect(await postShopifyDelivery(webhookUrl, shopifyDelivery('orders/create', body, SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
  const conversion = await pipeline.database.db<ConversionRow>('conversions').where({ workspace_id: workspace.id, event_id: orderId }).first();
  if (conversion === undefined) throw new Error(`order ${orderId} made no conversion`);
  return pipeline.settled(conversion);
}

/** The `user` of the one event TikTok received for this order. */
async function sentUser(conversion: ConversionRow): Promise<Record<string, unknown>> {
  const sent = (await pipeline.fake.receivedEvents()).events.filter((event) => event.eventId === conversion.event_id);
  expect(sent).toHaveLength(1);
  return (sent[0]?.payload as { user: Record<string, unknown> }).user;
}

/** How the console explains the click: the sentence of its identity step, the source the API names, and the path. */
async function explained(conversion: ConversionRow) {
  const answer = await viewer('GET', `workspaces/${workspace.id}/conversions/${conversion.id}`);
  const detail = declared('GET', '/console/api/workspaces/:workspaceId/conversions/:conversionId', 200).parse(answer.json()) as {
    click: { ttclid: string | null; source: string | null; anonymousId: string | null };
    identityPath: { kind: string; value: string }[] | null;
    timeline: { summary: string }[];
  };
  return { click: detail.click, path: detail.identityPath?.map((node) => `${node.kind}:${node.value}`) ?? null, found: detail.timeline.find((entry) => entry.summary.includes('click'))?.summary };
}

describe('a returning Shopify customer: the order’s own click wins over the earlier visit’s', () => {
  const customerId = '7200000000000000001';
  const earlierVisit = 'visitor-earlier';
  const clickA = ttclid();
  const landedAt = daysAgo(3);

  it('sends the first order, whose cart attributes name the visitor, with click A timed at its landing page view', async () => {
    await pipeline.ingest(workspace, [landing(earlierVisit, clickA, landedAt)]);
    const first = await order({ customerId, at: new Date(landedAt.getTime() + 3_600_000), attributes: { anonymousId: earlierVisit, click: clickA }, landingSite: `/products/aviator-sunglasses?ttclid=${clickA}`, cartToken: 'cart-first-visit' });
    expect(first).toMatchObject({ status: 'delivered', ttclid: clickA, click_source: 'message', click_anonymous_id: earlierVisit, click_captured_at: landedAt });
    expect((await sentUser(first)).ttclid).toBe(clickA);
  });

  it.each([
    { orderWith: 'no cart token (the message names only the customer)', cartToken: null },
    { orderWith: 'a cart token of its own', cartToken: 'cart-second-visit' },
  ])('sends a later order with $orderWith, landing from ?ttclid=B and no cart attributes, with click B', async ({ cartToken }) => {
    const clickB = ttclid();
    const at = new Date(Date.now() - 60_000);
    const later = await order({ customerId, at, landingSite: `/collections/all?utm_source=tiktok&ttclid=${clickB}`, cartToken });
    expect(later).toMatchObject({ status: 'delivered', ttclid: clickB, click_source: 'message', click_captured_at: at, match_keys: expect.objectContaining({ ttclid: { source: 'message' } }) });
    expect(later.click_anonymous_id).toBe(cartToken === null ? null : `shopify-cart-${cartToken}`);
    expect((await sentUser(later)).ttclid).toBe(clickB);

    const { click, found } = await explained(later);
    expect(click).toEqual({ ttclid: clickB, capturedAt: at.toISOString(), anonymousId: later.click_anonymous_id, source: 'message' });
    expect(found).toMatch(/^Found the TikTok ad click on this event itself/);
  });
});

describe('the other sources still count, each explained as found', () => {
  it("sends an order that carries no click with the click of the customer's visitor, found through their identity", async () => {
    const customerId = '7200000000000000002';
    const clickA = ttclid();
    await pipeline.ingest(workspace, [landing('visitor-identity', clickA, daysAgo(2)), identify(customerId, 'visitor-identity', { email: `customer-${customerId}@fern.example` })]);
    const conversion = await order({ customerId, at: new Date(Date.now() - 60_000), landingSite: '/products/aviator-sunglasses', cartToken: null });
    expect(conversion).toMatchObject({ status: 'delivered', ttclid: clickA, click_source: 'visitor', click_anonymous_id: 'visitor-identity' });
    expect((await sentUser(conversion)).ttclid).toBe(clickA);
    const { click, path, found } = await explained(conversion);
    expect(click.source).toBe('visitor');
    expect(path).toEqual([`user_id:${customerId}`, 'anonymous_id:visitor-identity']);
    expect(found).toBe('Found the TikTok ad click, made on visitor `visitor-identity`');
  });

  it('sends the later click of another device linked to the customer, not the older one the order’s cart attributes carry', async () => {
    const customerId = '7200000000000000003';
    const kept = ttclid();
    const phoneClick = ttclid();
    await pipeline.ingest(workspace, [
      landing('visitor-laptop', kept, daysAgo(10)),
      landing('visitor-phone', phoneClick, daysAgo(1)),
      identify(customerId, 'visitor-phone', { email: `customer-${customerId}@fern.example` }),
    ]);
    // The tag kept the laptop's click and wrote it into the cart; the order is made on the laptop.
    const conversion = await order({ customerId, at: new Date(Date.now() - 60_000), attributes: { anonymousId: 'visitor-laptop', click: kept }, landingSite: '/collections/all', cartToken: 'cart-laptop' });
    expect(conversion).toMatchObject({ status: 'delivered', ttclid: phoneClick, click_source: 'visitor', click_anonymous_id: 'visitor-phone' });
    expect((await sentUser(conversion)).ttclid).toBe(phoneClick);
  });
});
