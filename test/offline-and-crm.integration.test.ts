import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { postShopifyDelivery, shopifyDelivery, shopifyFixture } from '../devstack/shopify-fake';
import { FAKE_TIKTOK_CRM_EVENT_SET_ID, FAKE_TIKTOK_OFFLINE_EVENT_SET_ID } from '../devstack/tiktok-fake';
import type { Workspace } from '../db/repositories/workspaces';
import type { ConversionRow } from '../db/types';
import { sha256Hex } from '../domain/hashing';
import { closeAll } from './helpers/close-all';
import { adminCall } from './helpers/console-client';
import { daysAgo, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { buildTestApp } from './helpers/test-app';

/**
 * Sales off the website reach TikTok (issue 45): a Shopify point-of-sale order goes to the Offline Event Set, a lead's
 * CRM stages to the CRM Event Set, each matched on the person without a click; what TikTok received is read from the
 * fake TikTok, which checks the event sets against the advertiser's.
 */
const SHOP_KEY = 'f00df00df00df00df00df00df00df00df00df00df00df00df00df00df00df00d';
const CRM_STAGES = ['LeadContacted', 'LeadQualified', 'DealWon'];

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let app: FastifyInstance;
let workspace: Workspace;
let webhookUrl: string;
let nextOrderId = 7_200_000_000_000_001n;

async function withEventSets(ws: Workspace, sets: { offline: string | null; crm: string | null }): Promise<void> {
  await pipeline.database.db('tiktok_connections').where({ workspace_id: ws.id }).update({ offline_event_set_id: sets.offline, crm_event_set_id: sets.crm });
}

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  workspace = await pipeline.workspace({
    rules: [
      { sourceEvent: 'Order Completed', valueSource: 'order_total' },
      ...CRM_STAGES.map((stage) => ({ sourceEvent: stage, tiktokEvent: stage, destination: 'crm' as const })),
    ],
  });
  await withEventSets(workspace, { offline: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, crm: FAKE_TIKTOK_CRM_EVENT_SET_ID });
  ({ app } = buildTestApp(pipeline.database.db, { repos: pipeline.repos, recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const source = await adminCall(app, 'POST', `/admin/workspaces/${workspace.id}/sources`, { type: 'shopify', name: 'Fern shop', signingSecret: SHOP_KEY });
  expect(source.statusCode).toBe(201);
  webhookUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/webhooks/${source.json().id}`;
});

afterAll(() =>
  closeAll(
    () => app?.close(),
    () => pipeline?.close(),
  ),
);

/** An orders/create delivery of Shopify's example order under a new ID, changed as given, and its settled conversion. */
async function order(change: Record<string, unknown>): Promise<ConversionRow> {
  const body = shopifyFixture('orders/create');
  const orderId = String(nextOrderId++);
  const now = new Date().toISOString();
  Object.assign(body, { id: orderId, name: `#${orderId.slice(-4)}`, created_at: now, processed_at: now, ...change });
  expect(await postShopifyDelivery(webhookUrl, shopifyDelivery('orders/create', body, SHOP_KEY))).toEqual({ status: 200, body: { success: true } });
  const conversion = await pipeline.database.db<ConversionRow>('conversions').where({ workspace_id: workspace.id, event_id: orderId }).first();
  if (conversion === undefined) throw new Error(`order ${orderId} made no conversion`);
  return pipeline.settled(conversion);
}

async function received(eventId: string) {
  return (await pipeline.fake.receivedEvents()).events.filter((event) => event.eventId === eventId);
}

describe('a Shopify point-of-sale order', () => {
  it("goes to the Offline Event Set as CompletePayment under its order ID with the buyer's hashed keys, while an online order of the shop still goes to the pixel", async () => {
    const pos = await order({ source_name: 'pos', location_id: 48752903, landing_site: null });
    expect(pos).toMatchObject({ status: 'delivered', event_source: 'offline', tiktok_event: 'CompletePayment', ttclid: null });
    const [sent, ...more] = await received(pos.event_id);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ eventSource: 'offline', eventSourceId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, event: 'CompletePayment', eventId: pos.event_id });
    expect(sent?.payload).toMatchObject({ properties: { value: 403, currency: 'USD' }, user: { email: sha256Hex('jon@example.com') } });
    expect(sent?.payload).not.toHaveProperty('page');
    expect(Object.keys(sent?.payload.user as object).filter((key) => ['ttclid', 'ttp', 'ip', 'user_agent'].includes(key))).toEqual([]);

    const click = ttclid();
    const online = await order({ landing_site: `/products/aviator-sunglasses?ttclid=${click}` });
    expect(online).toMatchObject({ status: 'delivered', event_source: 'web', ttclid: click });
    expect(await received(online.event_id)).toMatchObject([{ eventSource: 'web', eventSourceId: expect.stringMatching(/^C/), event: 'CompletePayment' }]);
  });
});

describe("a lead's CRM stages", () => {
  it('arrive as three CRM events of the CRM Event Set, each with its lead', async () => {
    const lead = { lead_id: `hs-${nextOrderId++}`, lead_event_source: 'HubSpot' };
    const stages = CRM_STAGES.map((stage) => track(stage, { userId: `person-${lead.lead_id}` }, lead, { context: { traits: { email: 'ana@fern.example' } } }));
    const conversions = await pipeline.ingest(workspace, stages);
    expect(conversions.map((c) => c.event_source)).toEqual(['crm', 'crm', 'crm']);
    const settled = await Promise.all(conversions.map((c) => pipeline.settled(c)));
    expect(settled.map((c) => c.status)).toEqual(['delivered', 'delivered', 'delivered']);
    const sent = (await Promise.all(settled.map((c) => received(c.event_id)))).flat();
    expect(sent.map((e) => [e.eventSource, e.eventSourceId, e.event, e.payload.lead])).toEqual(CRM_STAGES.map((stage) => ['crm', FAKE_TIKTOK_CRM_EVENT_SET_ID, stage, lead]));
    expect(sent.every((e) => (e.payload.user as { email?: string }).email === sha256Hex('ana@fern.example'))).toBe(true);
  });

  it('is skipped with its reason without a lead ID, or without an email, phone or external ID', async () => {
    const [noLead] = await pipeline.ingest(workspace, [track('LeadContacted', { userId: 'person-without-lead' }, {})]);
    expect(await pipeline.settled(noLead!)).toMatchObject({ status: 'skipped', reason: 'lead_id_missing' });
    const [noKeys] = await pipeline.ingest(workspace, [track('LeadContacted', { anonymousId: 'visitor-only' }, { lead_id: 'hs-1' })]);
    expect(await pipeline.settled(noKeys!)).toMatchObject({ status: 'skipped', reason: 'no_person_keys' });
  });
});

describe('without the event set, or too old', () => {
  it('ends an offline sale with offline_events_not_configured and a CRM stage with crm_events_not_configured', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'Store Sale', tiktokEvent: 'CompletePayment' }, { sourceEvent: 'DealWon', tiktokEvent: 'DealWon', destination: 'crm' }] });
    const [sale, won] = await pipeline.ingest(ws, [
      track('Store Sale', { userId: 'walk-in-1' }, { order_id: 'till-1' }, { context: { channel: 'offline' } }),
      track('DealWon', { userId: 'walk-in-1' }, { lead_id: 'hs-2' }),
    ]);
    expect(sale).toMatchObject({ event_source: 'offline' });
    expect(await pipeline.settled(sale!)).toMatchObject({ status: 'skipped', reason: 'offline_events_not_configured' });
    expect(await pipeline.settled(won!)).toMatchObject({ status: 'skipped', reason: 'crm_events_not_configured' });
  });

  it("ends an offline sale older than TikTok's 28 days as expired, unsent", async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'Store Sale', tiktokEvent: 'CompletePayment' }] });
    await withEventSets(ws, { offline: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, crm: null });
    const [old] = await pipeline.ingest(ws, [track('Store Sale', { userId: 'walk-in-2' }, { order_id: 'till-2' }, { context: { channel: 'offline' }, timestamp: daysAgo(29).toISOString() })]);
    expect(await pipeline.settled(old!)).toMatchObject({ status: 'skipped', reason: 'expired' });
    expect(await received(old!.event_id)).toEqual([]);
  });
});
