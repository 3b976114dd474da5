import type { FastifyInstance } from 'fastify';
import type { Workspace } from '../db/repositories/workspaces';
import { sha256Hex } from '../domain/hashing';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

/**
 * Every signal TikTok matches on, from a Segment-shaped message through ingest, the pipeline and the fake TikTok
 * (which refuses any hashed field that is not 64 lower-case hex, so a plaintext slip fails here; city, state and
 * country go in plain text, as reference §1.3 has them).
 */
let pipeline: TestPipeline;
let admin: FastifyInstance;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app: admin } = buildTestApp(pipeline.database.db, { repos: pipeline.repos }));
});
afterAll(async () => {
  await admin.close();
  await pipeline.close();
});

async function putRule(workspace: Workspace, event: string): Promise<{ tiktokEvent: string; chosen: string }> {
  const answer = await admin.inject({
    method: 'PUT',
    url: `/admin/workspaces/${workspace.id}/conversion-rules/${encodeURIComponent(event)}`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: {},
  });
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

/** The event TikTok accepted for a conversion, after the conversion was delivered. */
async function sentEvent(workspace: Workspace, messages: unknown[]): Promise<Record<string, unknown>> {
  const [conversion] = await pipeline.ingest(workspace, messages);
  const settled = await pipeline.settled(conversion!);
  expect(settled).toMatchObject({ status: 'delivered' });
  const { events } = await pipeline.fake.receivedEvents();
  const event = events.find((e) => e.eventId === settled.event_id && e.event === settled.tiktok_event);
  if (event === undefined) throw new Error(`TikTok received no ${settled.tiktok_event} with event_id ${settled.event_id}`);
  return event.payload as Record<string, unknown>;
}

/** A shop with an Order Completed rule, and a visitor who clicked an ad two days ago. */
async function shopWithClick(visitor: string): Promise<Workspace> {
  const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'Order Completed', valueSource: 'order_total' }] });
  await pipeline.ingest(ws, [landing(visitor, ttclid(), daysAgo(2))]);
  return ws;
}

describe('signals TikTok matches on', () => {
  it('sends a user ID, email and phone the sender already hashed as they are, and takes the camelCase eventId for deduplication', async () => {
    const ws = await shopWithClick('v-hashed');
    const user = sha256Hex('customer-77');
    const email = sha256Hex('jo@example.com');
    const phone = sha256Hex('+12133734253');
    const order = track('Order Completed', { userId: user.toUpperCase(), anonymousId: 'v-hashed' }, { order_id: 'H-1', eventId: 'pixel-evt-1', total: 12, currency: 'USD' }, {
      context: { traits: { email, phone } },
    });
    const sent = await sentEvent(ws, [order]);
    expect(sent).toMatchObject({ event_id: 'pixel-evt-1', user: { external_id: user, email, phone } });
    expect(sent.properties).not.toHaveProperty('eventId');
  });

  it("sends the buyer's name and address from Segment's traits as advanced-matching keys (names and ZIP hashed, city, state and country plain), and records them as the message's", async () => {
    const ws = await shopWithClick('v-address');
    const traits = { firstName: ' Mary-Ann ', lastName: "O'Neil", address: { city: 'San Jose', state: 'CA', country: 'United States', postalCode: '95112-4321' } };
    const order = track('Order Completed', { userId: 'u-address', anonymousId: 'v-address' }, { order_id: 'AM-1', total: 30, currency: 'USD' }, { context: { traits } });
    const sent = await sentEvent(ws, [order]);
    expect(sent.user).toMatchObject({
      first_name: sha256Hex('maryann'),
      last_name: sha256Hex('oneil'),
      city: 'sanjose',
      state: 'ca',
      country: 'us',
      zip_code: sha256Hex('95112'),
    });
    const [conversion] = await pipeline.database.db('conversions').where({ workspace_id: ws.id, event_id: 'AM-1' });
    expect(conversion.match_keys).toMatchObject({ first_name: { source: 'message' }, zip_code: { source: 'message' } });

    // Match-key coverage (`signalbox match-keys`, the console's Overview) counts them.
    const coverage = await admin.inject({ method: 'GET', url: `/admin/workspaces/${ws.id}/match-keys?days=7`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const shares = Object.fromEntries(coverage.json().keys.map((k: { key: string; share: number }) => [k.key, k.share]));
    expect(shares).toMatchObject({ first_name: 1, last_name: 1, city: 1, state: 1, country: 1, zip_code: 1, external_id: 1 });
    const figures = await pipeline.repos.conversionFigures.matchKeyCoverage(ws.id, { from: daysAgo(1), to: new Date(Date.now() + 60_000) });
    expect(figures.withKey).toMatchObject({ first_name: 1, zip_code: 1, external_id: 1 });
  });

  it('sends every email, valid phone and external ID a message lists, as arrays TikTok takes', async () => {
    const ws = await shopWithClick('v-arrays');
    const traits = { email: ['jo@example.com', 'JO@example.com', 'ann@example.com'], phone: ['+1 213 373 4253', 'n/a'], external_id: ['crm-9'] };
    const sent = await sentEvent(ws, [track('Order Completed', { userId: 'u-arrays', anonymousId: 'v-arrays' }, { order_id: 'AR-1', total: 5, currency: 'USD' }, { context: { traits } })]);
    expect(sent.user).toMatchObject({
      email: [sha256Hex('jo@example.com'), sha256Hex('ann@example.com')],
      phone: sha256Hex('+12133734253'),
      external_id: [sha256Hex('u-arrays'), sha256Hex('crm-9')],
    });
  });

  it("keeps the sender's content_type, content_ids and num_items, and sends its TikTok-shaped contents rather than its products", async () => {
    const ws = await shopWithClick('v-contents');
    const properties = {
      order_id: 'CT-1',
      total: 46,
      currency: 'USD',
      content_type: 'product_group',
      contents: [{ content_id: 'G-7', price: 23, quantity: 2 }],
      products: [{ product_id: 'SKU-1', price: 8, quantity: 1 }],
      content_ids: ['G-7'],
      num_items: 2,
    };
    const sent = await sentEvent(ws, [track('Order Completed', { userId: 'u-contents', anonymousId: 'v-contents' }, properties)]);
    expect(sent.properties).toEqual({ value: 46, currency: 'USD', content_type: 'product_group', contents: [{ content_id: 'G-7', price: 23, quantity: 2 }], content_ids: ['G-7'], num_items: 2, order_id: 'CT-1' });
  });

  it('sends address keys written flat in traits, and content_ids and num_items (units: 2 + 1) derived from products when the sender gives only those', async () => {
    const ws = await shopWithClick('v-flat');
    const traits = { firstName: 'Jo', city: 'Los Angeles', state: 'CA', zip: '90012', country: 'USA' };
    const properties = { order_id: 'FL-1', total: 31, currency: 'USD', products: [{ product_id: 'SKU-1', price: 8, quantity: 2 }, { sku: 'SKU-2', price: 15, quantity: 1 }] };
    const sent = await sentEvent(ws, [track('Order Completed', { userId: 'u-flat', anonymousId: 'v-flat' }, properties, { context: { traits } })]);
    expect(sent.user).toMatchObject({ first_name: sha256Hex('jo'), city: 'losangeles', state: 'ca', country: 'us', zip_code: sha256Hex('90012') });
    expect(sent.properties).toEqual({
      value: 31,
      currency: 'USD',
      content_type: 'product',
      contents: [{ content_id: 'SKU-1', price: 8, quantity: 2 }, { content_id: 'SKU-2', price: 15, quantity: 1 }],
      content_ids: ['SKU-1', 'SKU-2'],
      num_items: 3,
      order_id: 'FL-1',
    });
    const [conversion] = await pipeline.database.db('conversions').where({ workspace_id: ws.id, event_id: 'FL-1' });
    expect(conversion.match_keys).toMatchObject({ city: { source: 'message' }, state: { source: 'message' }, country: { source: 'message' }, zip_code: { source: 'message' } });
  });

  it('forwards custom properties that merely contain many digits, and still drops contact fields and emails', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'Delivery Booked' }] });
    await pipeline.ingest(ws, [landing('v-custom', ttclid(), daysAgo(1))]);
    const properties = { delivery_date: '2026-11-26', sku: 'SKU-100200300', order_number: '1000234567', customer_phone: '+1 213 373 4253', note: 'jo@example.com' };
    const sent = await sentEvent(ws, [track('Delivery Booked', { anonymousId: 'v-custom' }, properties)]);
    expect(sent).toMatchObject({ event: 'Delivery Booked' });
    expect(sent.properties).toEqual({ delivery_date: '2026-11-26', sku: 'SKU-100200300', order_number: '1000234567' });
  });

  it("maps Segment's wider spec names and TikTok's own standard names with a rule that names no TikTok event", async () => {
    const ws = await pipeline.workspace();
    expect(await putRule(ws, 'Payment Info Entered')).toMatchObject({ tiktokEvent: 'AddPaymentInfo', chosen: expect.stringMatching(/^Payment Info Entered is a Segment spec event: sent to TikTok as AddPaymentInfo, valued at the amount/) });
    expect(await putRule(ws, 'Purchase')).toMatchObject({ tiktokEvent: 'Purchase', chosen: expect.stringMatching(/^Purchase is a TikTok standard event: sent to TikTok under its own name, valued at the amount/) });
    await pipeline.ingest(ws, [landing('v-names', ttclid(), daysAgo(1))]);
    const payment = await sentEvent(ws, [track('Payment Info Entered', { anonymousId: 'v-names' }, { price: 12, quantity: 2, currency: 'EUR' })]);
    expect(payment).toMatchObject({ event: 'AddPaymentInfo', properties: { value: 24, currency: 'EUR' } });
    const purchase = await sentEvent(ws, [track('Purchase', { anonymousId: 'v-names' }, { order_id: 'P-1', total: 9, currency: 'EUR' })]);
    expect(purchase).toMatchObject({ event: 'Purchase', event_id: 'P-1', properties: { value: 9, currency: 'EUR' } });
  });
});
