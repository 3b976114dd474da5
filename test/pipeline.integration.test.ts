import { EVENT_TRACK_PATH, FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { deliverConversionGroup } from '../activities/group/deliver-group';
import { prepareConversionGroup } from '../activities/group/prepare-group';
import type { ConversionRow } from '../db/types';
import { sha256Hex } from '../domain/hashing';
import { WorkspaceIdAttribute } from '../workflows/search-attributes';
import { daysAgo, identify, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

const APP_ID = '7301234567890123456';
const OTHER_PIXEL = 'CSIGNALBOXOTHERPIX01';
const OTHER_TOKEN = 'other-shop-tiktok-token';

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
  await pipeline.fake.registerToken({ accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCodes: [FAKE_TIKTOK_PIXEL_CODE, APP_ID], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID] });
  await pipeline.fake.registerToken({ accessToken: OTHER_TOKEN, pixelCodes: [OTHER_PIXEL], advertiserIds: [] });
});
afterAll(() => pipeline.close());
afterEach(() => pipeline.fake.clearFaults());

type Workspace = Awaited<ReturnType<TestPipeline['workspace']>>;

/** `count` clicked visitors each buying once, committed without waking the workflow, so that one group takes them all. */
async function clickedPurchases(ws: Workspace, prefix: string, count: number, properties: (i: number) => Record<string, unknown> = () => ({})) {
  await pipeline.ingest(ws, Array.from({ length: count }, (_, i) => landing(`${prefix}-visitor-${i}`, ttclid(), daysAgo(1))));
  return pipeline.ingest(
    ws,
    Array.from({ length: count }, (_, i) => track('purchase', { anonymousId: `${prefix}-visitor-${i}` }, { order_id: `${prefix}-${i}`, total: 10 + i, currency: 'USD', ...properties(i) })),
    { start: false },
  );
}

async function wakeAndSettle(conversions: readonly ConversionRow[]): Promise<ConversionRow[]> {
  await pipeline.startConversions(conversions.map((c) => ({ workspaceId: c.workspace_id, id: c.id })));
  return Promise.all(conversions.map((c) => pipeline.settled(c)));
}

async function requestsWith(prefix: string) {
  const { requests } = await pipeline.fake.receivedEvents();
  return requests.filter((r) => r.path === EVENT_TRACK_PATH && r.rawBody.includes(`"${prefix}-`));
}

async function acceptedWith(prefix: string) {
  const { events } = await pipeline.fake.receivedEvents();
  return events.filter((e) => e.eventId?.startsWith(`${prefix}-`));
}

describe('conversions in groups', () => {
  it('delivers a group in one request; each conversion keeps its own event, the request it went in, TikTok’s answer and its timeline', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const settled = await wakeAndSettle(await clickedPurchases(ws, 'group', 30));

    const requests = await requestsWith('group');
    expect(requests).toHaveLength(1);
    const sent = JSON.parse(requests[0]!.rawBody) as { event_source_id: string; data: { event_id: string }[] };
    expect(sent.data.map((e) => e.event_id).sort()).toEqual(settled.map((c) => c.event_id).sort());
    expect(requests[0]?.answer?.code).toBe(0);

    const deliveryRequestIds = new Set(settled.map((c) => c.delivery_request_id));
    expect(deliveryRequestIds.size).toBe(1);
    const stored = await pipeline.repos.conversionGroups.findRequest([...deliveryRequestIds][0] as string);
    expect(stored).toMatchObject({ event_source: 'web', event_source_id: FAKE_TIKTOK_PIXEL_CODE, outcome: 'success', tiktok_code: 0, tiktok_request_id: requests[0]?.requestId });
    expect(stored?.conversion_ids).toEqual(sent.data.map((e) => settled.find((c) => c.event_id === e.event_id)?.id));
    for (const conversion of settled) {
      expect(conversion).toMatchObject({ status: 'delivered', attempts: 1, tiktok_code: 0, tiktok_request_id: requests[0]?.requestId });
      const own = sent.data.find((e) => e.event_id === conversion.event_id);
      expect(conversion.request_payload).toEqual({ event_source: 'web', event_source_id: FAKE_TIKTOK_PIXEL_CODE, data: [own] });
    }

    const timeline = await pipeline.repos.conversionHistory.list(settled[0]!.id);
    expect(timeline.map((t) => t.step)).toEqual(['identity_resolved', 'window_checked', 'payload_built', 'delivery_attempt', 'outcome']);
    expect(timeline[0]?.detail).toMatchObject({ linkedVisitors: 1, clickAnonymousId: 'group-visitor-0' });
    expect(timeline[3]?.detail).toMatchObject({ attempt: 1, requestId: requests[0]?.requestId, code: 0, eventsInRequest: 30 });
    expect(timeline[4]?.detail).toEqual({ status: 'delivered', reason: null });
  });

  it("flags each event of a workspace with Limited Data Use on, as TikTok receives it, and no other workspace's", async () => {
    const limited = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { limitedDataUse: true } });
    const plain = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const settled = await wakeAndSettle([...(await clickedPurchases(limited, 'ldu', 2)), ...(await clickedPurchases(plain, 'plain', 1))]);
    expect(settled.map((c) => c.status)).toEqual(['delivered', 'delivered', 'delivered']);

    const sentEvents = async (prefix: string) => (await requestsWith(prefix)).flatMap((r) => (JSON.parse(r.rawBody) as { data: Record<string, unknown>[] }).data);
    expect((await sentEvents('ldu')).map((e) => e.limited_data_use)).toEqual([true, true]);
    const [plainEvent] = await sentEvents('plain');
    expect(plainEvent).toBeDefined();
    expect(plainEvent).not.toHaveProperty('limited_data_use');
  });

  it('is processed by the workspace’s one workflow, findable by its search attribute, run recorded on each conversion', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const [settled] = await wakeAndSettle(await clickedPurchases(ws, 'findable', 1));
    const description = await pipeline.client.workflow.getHandle(settled!.workflow_id).describe();
    expect(settled!.workflow_id).toBe(`conversion-pipeline-${ws.id}`);
    expect(settled!.workflow_run_id).toBe(description.runId);
    expect(description.typedSearchAttributes.get(WorkspaceIdAttribute)).toBe(ws.id);
  });

  it('records the identity path from the converting user to the visitor that clicked, hashes only', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [
      landing('path-phone', ttclid(), daysAgo(3)),
      track('newsletter_signup', { anonymousId: 'path-phone' }, { email: 'dana@example.com' }),
      identify('dana', 'path-desktop', { email: 'Dana@example.com' }),
    ]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { userId: 'dana' }, { order_id: 'path-1', total: 3, currency: 'USD' })]);
    expect(await pipeline.settled(conversion!)).toMatchObject({
      status: 'delivered',
      identity_path: [
        { kind: 'user_id', value: 'dana' },
        { kind: 'email_sha256', value: sha256Hex('dana@example.com') },
        { kind: 'anonymous_id', value: 'path-phone' },
      ],
    });
  });

  it('fails only the event that breaks TikTok’s rules, without sending it, and delivers the rest of its group', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const conversions = await clickedPurchases(ws, 'invalid', 5, (i) => (i === 2 ? { currency: 'BTC' } : {}));
    const settled = await wakeAndSettle(conversions);
    const bad = settled.find((c) => c.event_id === 'invalid-2');
    expect(bad).toMatchObject({ status: 'failed', reason: 'event_invalid', attempts: 0, delivery_request_id: null });
    expect(bad?.tiktok_message).toBe('Invalid value for data[0].properties.currency: must be a supported ISO 4217 currency code, e.g. USD.');
    expect(settled.filter((c) => c.status === 'delivered')).toHaveLength(4);
    expect((await requestsWith('invalid')).map((r) => JSON.parse(r.rawBody).data.length)).toEqual([4]);
    expect((await acceptedWith('invalid')).map((e) => e.eventId).sort()).toEqual(['invalid-0', 'invalid-1', 'invalid-3', 'invalid-4']);
  });

  it('splits a request TikTok refuses for one event until only that event fails, with TikTok’s code; the others go once', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const conversions = await clickedPurchases(ws, 'split', 8);
    const message = 'Invalid value for data[0].properties: rejected by a rule Signalbox does not check.';
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, bodyIncludes: '"split-5"', code: 40002, message, times: 10 }]);
    const settled = await wakeAndSettle(conversions);

    expect(settled.find((c) => c.event_id === 'split-5')).toMatchObject({ status: 'failed', reason: 'tiktok_rejected', tiktok_code: 40002, tiktok_message: message, attempts: 4 });
    expect(settled.filter((c) => c.status === 'delivered').map((c) => c.event_id).sort()).toEqual(['split-0', 'split-1', 'split-2', 'split-3', 'split-4', 'split-6', 'split-7']);
    const accepted = await acceptedWith('split');
    expect(accepted.map((e) => e.eventId).sort()).toEqual(['split-0', 'split-1', 'split-2', 'split-3', 'split-4', 'split-6', 'split-7']);
    expect(accepted.every((e) => !e.deduplicated)).toBe(true);
    // 8 → 4 + 4 → 2 + 2 → 1 + 1: each refused half is split again, each accepted one is done.
    const requests = (await requestsWith('split')).map((r) => `${JSON.parse(r.rawBody).data.length}:${r.answer?.code}`);
    expect(requests.sort()).toEqual(['1:0', '1:40002', '2:0', '2:40002', '4:0', '4:40002', '8:40002']);
  });

  it('never puts two workspaces, or a pixel and an app, in one request', async () => {
    const shop = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.repos.tiktokConnections.setAppId(shop.id, APP_ID);
    const other = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], connected: false });
    await pipeline.repos.tiktokConnections.put(other.id, { accessToken: OTHER_TOKEN, advertiserId: null, pixelCode: OTHER_PIXEL });

    const web = await clickedPurchases(shop, 'mix-web', 3);
    const fromApp = await pipeline.ingest(
      shop,
      Array.from({ length: 3 }, (_, i) => track('purchase', { anonymousId: `mix-web-visitor-${i}` }, { order_id: `mix-app-${i}`, total: 1, currency: 'USD' })),
      { start: false, fromAppKey: true },
    );
    const otherShop = await clickedPurchases(other, 'mix-other', 3);
    const settled = await wakeAndSettle([...web, ...fromApp, ...otherShop]);
    expect(settled.every((c) => c.status === 'delivered')).toBe(true);

    const { requests } = await pipeline.fake.receivedEvents();
    const mixed = requests.filter((r) => r.rawBody.includes('"mix-'));
    const shapes = mixed.map((r) => {
      const body = JSON.parse(r.rawBody) as { event_source: string; event_source_id: string; data: { event_id: string }[] };
      return [r.headers.accessToken, body.event_source, body.event_source_id, body.data.map((e) => e.event_id.replace(/-\d+$/, '')).sort()];
    });
    expect(shapes).toHaveLength(3);
    expect(shapes).toEqual(
      expect.arrayContaining([
        [FAKE_TIKTOK_ACCESS_TOKEN, 'web', FAKE_TIKTOK_PIXEL_CODE, ['mix-web', 'mix-web', 'mix-web']],
        [FAKE_TIKTOK_ACCESS_TOKEN, 'app', APP_ID, ['mix-app', 'mix-app', 'mix-app']],
        [OTHER_TOKEN, 'web', OTHER_PIXEL, ['mix-other', 'mix-other', 'mix-other']],
      ]),
    );
  });

  it('sends test-mode conversions one per request, each with the test code', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { testMode: true, testEventCode: 'TEST04030' } });
    const settled = await wakeAndSettle(await clickedPurchases(ws, 'testmode', 3));
    expect(settled.every((c) => c.status === 'delivered' && c.reason === 'test_mode')).toBe(true);
    const bodies = (await requestsWith('testmode')).map((r) => JSON.parse(r.rawBody) as { test_event_code: string; data: unknown[] });
    expect(bodies.map((b) => [b.test_event_code, b.data.length])).toEqual([
      ['TEST04030', 1],
      ['TEST04030', 1],
      ['TEST04030', 1],
    ]);
  });

  it('takes over a dead claimer’s group once its lease runs out, sending only what it had not sent, each event once', async () => {
    const shop = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.repos.tiktokConnections.setAppId(shop.id, APP_ID);
    const web = await clickedPurchases(shop, 'lease-web', 3);
    const fromApp = await pipeline.ingest(
      shop,
      Array.from({ length: 3 }, (_, i) => track('purchase', { anonymousId: `lease-web-visitor-${i}` }, { order_id: `lease-app-${i}`, total: 1, currency: 'USD' })),
      { start: false, fromAppKey: true },
    );

    // Another claimer takes the whole group with a short lease, sends the web request, and dies before the app one.
    const dying = {
      ...pipeline.deps,
      pipeline: { ...pipeline.deps.pipeline, leaseMs: 1_500 },
      reached: async (point: string) => {
        if (point === 'answer-recorded') throw new Error('claimer died');
      },
    };
    const group = { workspaceId: shop.id, claimId: 'dead-run:0', runId: 'dead-run' };
    expect(await prepareConversionGroup(dying, { ...group, fill: false })).toMatchObject({ claimed: 6, ready: 6 });
    await expect(deliverConversionGroup(dying, group)).rejects.toThrow('claimer died');

    const settled = await wakeAndSettle([...web, ...fromApp]);
    expect(settled.every((c) => c.status === 'delivered')).toBe(true);
    expect(settled.filter((c) => c.event_source === 'app').every((c) => c.claim_id === null && c.workflow_run_id !== 'dead-run')).toBe(true);
    const accepted = await acceptedWith('lease');
    expect(accepted.map((e) => e.eventId).sort()).toEqual(['lease-app-0', 'lease-app-1', 'lease-app-2', 'lease-web-0', 'lease-web-1', 'lease-web-2']);
    expect((await requestsWith('lease')).map((r) => JSON.parse(r.rawBody).event_source)).toEqual(['web', 'app']);
  });

  it('after a group, with nothing waiting yet, waits the batching window and claims the conversions that came meanwhile', async () => {
    const shop = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const busy = { ...pipeline.deps, pipeline: { ...pipeline.deps.pipeline, batchingWindowMs: 2_000 } };
    const group = { workspaceId: shop.id, claimId: 'linger-run:1', runId: 'linger-run' };
    const claiming = prepareConversionGroup(busy, { ...group, fill: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const conversions = await clickedPurchases(shop, 'linger', 3);
    expect(await claiming).toMatchObject({ claimed: 3, ready: 3 });
    expect(await deliverConversionGroup(pipeline.deps, group)).toMatchObject({ requests: 1, delivered: 3 });
    for (const conversion of conversions) expect(await pipeline.repos.conversions.find(conversion.id)).toMatchObject({ status: 'delivered', claim_id: null });
  });

  it('takes back at once what its run claimed in a workflow task lost to a worker crash, numbered beyond where the replay is', async () => {
    const shop = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const conversions = await clickedPurchases(shop, 'lost-task', 3);
    // Group 5 of the run claimed them (10-minute lease) in a task that never reached history; replayed, the run is at group 1.
    const lost = { workspaceId: shop.id, claimId: 'crashed-run:5', runId: 'crashed-run' };
    expect(await prepareConversionGroup(pipeline.deps, { ...lost, fill: false })).toMatchObject({ claimed: 3, ready: 3 });
    const otherRun = { workspaceId: shop.id, claimId: 'other-run:0', runId: 'other-run' };
    expect(await prepareConversionGroup(pipeline.deps, { ...otherRun, fill: false })).toMatchObject({ claimed: 0 });

    const replayed = { workspaceId: shop.id, claimId: 'crashed-run:1', runId: 'crashed-run' };
    expect(await prepareConversionGroup(pipeline.deps, { ...replayed, fill: false })).toMatchObject({ claimed: 3 });
    expect(await deliverConversionGroup(pipeline.deps, replayed)).toMatchObject({ requests: 1, delivered: 3 });
    for (const conversion of conversions) expect(await pipeline.repos.conversions.find(conversion.id)).toMatchObject({ status: 'delivered', claim_id: null });
    expect((await acceptedWith('lost-task')).map((e) => e.eventId).sort()).toEqual(['lost-task-0', 'lost-task-1', 'lost-task-2']);
  });
});
