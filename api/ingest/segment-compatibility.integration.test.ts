import RudderAnalytics from '@rudderstack/rudder-sdk-node';
import Signalbox from '@signalbox/api';
import { Analytics } from '@segment/analytics-node';
import type { Knex } from 'knex';
import type { Workspace } from '../../db/repositories/workspaces';
import { sha256Hex } from '../../domain/hashing';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';

let testDb: TestDatabase;
let subject: TestApp;
let host: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  host = await subject.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await subject.app.close();
  await testDb.destroy();
});

async function shop(name: string): Promise<{ workspace: Workspace; key: string }> {
  const workspace = await subject.repos.workspaces.create(name);
  await subject.repos.conversionRules.put(workspace.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  return { workspace, key: (await subject.repos.apiKeys.create(workspace.id, 'backend')).key };
}

const landingUrl = 'https://shop.example/ferns?utm_source=tiktok&ttclid=E.C.P.segment-click';
const order = { order_id: 'order-1001', total: 46, currency: 'usd' };

/** What Signalbox made of a workspace's events: stored events, visitor profile and clicks, identity links, conversions. */
async function outcome(db: Knex, workspaceId: string) {
  const where = { workspace_id: workspaceId };
  return {
    events: await db('events').where(where).orderBy(['type', 'message_id']).select('type', 'event_name', 'user_id', 'anonymous_id'),
    visitors: await db('visitors').where(where).select('anonymous_id', 'ttclid', 'ttp'),
    clicks: await db('clicks').where(where).select('anonymous_id', 'ttclid', 'page_url'),
    links: await db('identity_links').where(where).orderBy(['from_kind', 'from_value', 'to_kind', 'to_value']).select('from_kind', 'from_value', 'to_kind', 'to_value'),
    conversions: await db('conversions').where(where).select('source_event', 'tiktok_event', 'event_id', 'value', 'currency', 'event_source', 'status'),
  };
}

describe("Segment's Node library (@segment/analytics-node) pointed at Signalbox", () => {
  it('delivers track, identify, page and group, which Signalbox stores and acts on exactly as for its own library', async () => {
    const segmentShop = await shop('Segment shop');
    const segment = new Analytics({ writeKey: segmentShop.key, host, flushAt: 10, maxRetries: 0 });
    segment.page({ anonymousId: 'visitor-1', name: 'Ferns', properties: { url: landingUrl, referrer: 'https://www.tiktok.com/', ttp: 'ttp-visitor-1' } });
    segment.identify({ userId: 'user-1', anonymousId: 'visitor-1', traits: { email: ' Jane@Example.com ', plan: 'pro' } });
    segment.group({ userId: 'user-1', groupId: 'org-9', traits: { name: 'Plant Co', employees: 12 } });
    segment.track({ userId: 'user-1', event: 'purchase', properties: order });
    await segment.closeAndFlush();

    const ownShop = await shop('Signalbox shop');
    const own = new Signalbox({ apiKey: ownShop.key, host, flushAt: 10 });
    await own.page({ anonymousId: 'visitor-1', name: 'Ferns', properties: { url: landingUrl, referrer: 'https://www.tiktok.com/', ttp: 'ttp-visitor-1' } });
    await own.identify('user-1', { email: ' Jane@Example.com ', plan: 'pro' }, { anonymousId: 'visitor-1' });
    await own.group('user-1', 'org-9', { name: 'Plant Co', employees: 12 });
    await own.track({ userId: 'user-1', event: 'purchase', properties: order });
    await own.close();

    const viaSegment = await outcome(testDb.db, segmentShop.workspace.id);
    expect(viaSegment).toEqual(await outcome(testDb.db, ownShop.workspace.id));
    expect(viaSegment).toEqual({
      events: [
        { type: 'group', event_name: null, user_id: 'user-1', anonymous_id: null },
        { type: 'identify', event_name: null, user_id: 'user-1', anonymous_id: 'visitor-1' },
        { type: 'page', event_name: 'Ferns', user_id: null, anonymous_id: 'visitor-1' },
        { type: 'track', event_name: 'purchase', user_id: 'user-1', anonymous_id: null },
      ],
      visitors: [{ anonymous_id: 'visitor-1', ttclid: 'E.C.P.segment-click', ttp: 'ttp-visitor-1' }],
      clicks: [{ anonymous_id: 'visitor-1', ttclid: 'E.C.P.segment-click', page_url: landingUrl }],
      links: expect.arrayContaining([
        { from_kind: 'user_id', from_value: 'user-1', to_kind: 'anonymous_id', to_value: 'visitor-1' },
        { from_kind: 'user_id', from_value: 'user-1', to_kind: 'email_sha256', to_value: sha256Hex('jane@example.com') },
      ]),
      conversions: [{ source_event: 'purchase', tiktok_event: 'CompletePayment', event_id: 'order-1001', value: 46, currency: 'USD', event_source: 'web', status: 'pending' }],
    });
  });
});

describe("RudderStack's Node library (@rudderstack/rudder-sdk-node) pointed at Signalbox", () => {
  it('is accepted although it sends gzip as application/x-www-form-urlencoded, and is acted on as Signalbox own library', async () => {
    const rudderShop = await shop('RudderStack shop');
    const errors: unknown[] = [];
    const rudder = new RudderAnalytics(rudderShop.key, { dataPlaneUrl: host, flushAt: 10, logLevel: 'error', retryCount: 0, errorHandler: (error) => errors.push(error) });
    rudder.page({ anonymousId: 'visitor-1', name: 'Ferns', properties: { url: landingUrl, referrer: 'https://www.tiktok.com/', ttp: 'ttp-visitor-1' } });
    rudder.identify({ userId: 'user-1', anonymousId: 'visitor-1', traits: { email: ' Jane@Example.com ', plan: 'pro' } });
    rudder.group({ userId: 'user-1', groupId: 'org-9', traits: { name: 'Plant Co', employees: 12 } });
    rudder.track({ userId: 'user-1', event: 'purchase', properties: order });
    await rudder.flush();

    const ownShop = await shop('Signalbox shop for RudderStack');
    const own = new Signalbox({ apiKey: ownShop.key, host, flushAt: 10 });
    await own.page({ anonymousId: 'visitor-1', name: 'Ferns', properties: { url: landingUrl, referrer: 'https://www.tiktok.com/', ttp: 'ttp-visitor-1' } });
    await own.identify('user-1', { email: ' Jane@Example.com ', plan: 'pro' }, { anonymousId: 'visitor-1' });
    await own.group('user-1', 'org-9', { name: 'Plant Co', employees: 12 });
    await own.track({ userId: 'user-1', event: 'purchase', properties: order });
    await own.close();

    expect(errors).toEqual([]);
    const viaRudder = await outcome(testDb.db, rudderShop.workspace.id);
    expect(viaRudder.events).toHaveLength(4);
    expect(viaRudder).toEqual(await outcome(testDb.db, ownShop.workspace.id));
  });

  it('reads a body sent with any other content type as JSON too, and still names malformed JSON', async () => {
    const { key } = await shop('Odd content types');
    const post = (contentType: string, body: string) =>
      subject.app.inject({ method: 'POST', url: '/v1/track', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, payload: body });
    const message = JSON.stringify({ userId: 'user-1', event: 'viewed', messageId: 'odd-1' });
    expect((await post('application/octet-stream', message)).statusCode).toBe(200);
    expect((await post('application/x-www-form-urlencoded; charset=utf-8', message)).statusCode).toBe(200);
    const malformed = await post('application/x-www-form-urlencoded', 'event=viewed&userId=1');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'invalid_request' });
  });
});
