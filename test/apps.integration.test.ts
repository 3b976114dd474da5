import { randomUUID } from 'node:crypto';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { daysAgo, landing, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

const APP_ID = '7301234567890123456';
const IDFA = '6D92078A-8246-4BA4-AE5B-76104861E7DC';

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
  // The token may send events for the app as well as for the pixel, as a token of an app's Events Manager data source.
  await pipeline.fake.registerToken({ accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCodes: [FAKE_TIKTOK_PIXEL_CODE, APP_ID], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID] });
});
afterAll(() => pipeline.close());

/** A purchase as Segment's iOS library sends it. */
function iosPurchase(orderId: string, device: Record<string, unknown>) {
  return {
    type: 'track',
    event: 'purchase',
    messageId: randomUUID(),
    userId: `app-user-${orderId}`,
    anonymousId: `app-device-${orderId}`,
    timestamp: new Date().toISOString(),
    properties: { order_id: orderId, total: 9.99, currency: 'USD' },
    context: { app: { name: 'Shop', version: '4.2.0', build: '420' }, device: { type: 'ios', id: 'IDFV-1', ...device }, os: { name: 'iOS', version: '18.1' } },
  };
}

async function appWorkspace(appId: string | null) {
  const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  await pipeline.repos.tiktokConnections.setAppId(ws.id, appId);
  return ws;
}

describe('mobile app events', () => {
  it('are sent as app events under the App ID, with the device identifiers and no click', async () => {
    const ws = await appWorkspace(APP_ID);
    const [conversion] = await pipeline.ingest(ws, [iosPurchase('app-order-1', { advertisingId: IDFA.toLowerCase(), adTrackingEnabled: true })]);
    expect(conversion).toMatchObject({ event_source: 'app' });
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered', ttclid: null });
    const { events } = await pipeline.fake.receivedEvents();
    const sent = events.find((e) => e.eventId === 'app-order-1');
    expect(sent).toMatchObject({ eventSource: 'app', eventSourceId: APP_ID, event: 'CompletePayment' });
    expect(sent?.payload).toMatchObject({ app: { app_id: APP_ID, app_name: 'Shop', app_version: '4.2.0' }, user: { idfa: IDFA, idfv: 'IDFV-1', att_status: 'AUTHORIZED' } });
    expect(sent?.payload).not.toHaveProperty('page');
  });

  it('are app events whatever their context when they come with an app key', async () => {
    const ws = await appWorkspace(APP_ID);
    await pipeline.ingest(ws, [landing('in-app-browser', ttclid(), daysAgo(1))]);
    const purchase = { type: 'track', event: 'purchase', messageId: randomUUID(), anonymousId: 'in-app-browser', properties: { order_id: 'app-order-2', total: 5, currency: 'USD' } };
    const [conversion] = await pipeline.ingest(ws, [purchase], { fromAppKey: true });
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered', event_source: 'app' });
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.find((e) => e.eventId === 'app-order-2')).toMatchObject({ eventSource: 'app', eventSourceId: APP_ID });
  });

  it('are skipped with the reason when the workspace has no App ID', async () => {
    const ws = await appWorkspace(null);
    const [conversion] = await pipeline.ingest(ws, [iosPurchase('app-order-3', { advertisingId: IDFA, adTrackingEnabled: true })]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'skipped', reason: 'app_events_not_configured' });
  });

  it('need a click or an advertising ID to be attributed', async () => {
    const ws = await appWorkspace(APP_ID);
    const [conversion] = await pipeline.ingest(ws, [iosPurchase('app-order-4', { advertisingId: '00000000-0000-0000-0000-000000000000', adTrackingEnabled: false })]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'skipped', reason: 'no_ttclid' });
  });
});
