import { EVENT_TRACK_PATH } from '../devstack/tiktok-fake';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
});
afterAll(() => pipeline.close());
afterEach(() => pipeline.fake.clearFaults());

async function clickedPurchase(options: Parameters<TestPipeline['workspace']>[0] = {}, orderId = `o-${ttclid().slice(6, 18)}`) {
  const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], ...options });
  const anonymousId = `anon-${orderId}`;
  await pipeline.ingest(ws, [landing(anonymousId, ttclid(), daysAgo(1))]);
  const [conversion] = await pipeline.ingest(ws, [
    track('purchase', { anonymousId }, { order_id: orderId, total: 20, currency: 'USD', email: 'erin@example.com', phone: '+44 20 7946 0018' }, {
      context: { traits: { email: 'Erin@Example.com', phone: '020 7946 0018' }, page: { url: 'https://shop.example/thanks?email=erin%40example.com&step=done' } },
    }),
  ]);
  return { ws, conversion: conversion!, orderId };
}

async function requestsFor(orderId: string) {
  const { requests } = await pipeline.fake.receivedEvents();
  return requests.filter((r) => r.rawBody.includes(`"${orderId}"`));
}

describe('delivery to TikTok', () => {
  it('retries transient failures (system codes, gateway pages) and delivers once', async () => {
    await pipeline.fake.injectFaults([
      { path: EVENT_TRACK_PATH, code: 50002 },
      { path: EVENT_TRACK_PATH, httpStatus: 502 },
    ]);
    const { conversion, orderId } = await clickedPurchase();
    const settled = await pipeline.settled(conversion);
    expect(settled).toMatchObject({ status: 'delivered', attempts: 3, tiktok_code: 0 });
    const requests = await requestsFor(orderId);
    expect(requests.map((r) => r.answer?.code ?? r.answer?.httpStatus)).toEqual([50002, 502, 0]);
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.filter((e) => e.eventId === orderId && !e.deduplicated)).toHaveLength(1);
  });

  it('fails at once on a permanent TikTok error and keeps its code and message', async () => {
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 40002, message: 'Invalid value for event_source_id: not a valid string.' }]);
    const { conversion, orderId } = await clickedPurchase();
    const settled = await pipeline.settled(conversion);
    expect(settled).toMatchObject({
      status: 'failed',
      reason: 'tiktok_rejected',
      attempts: 1,
      tiktok_code: 40002,
      tiktok_message: 'Invalid value for event_source_id: not a valid string.',
    });
    expect(await requestsFor(orderId)).toHaveLength(1);
  });

  it('marks the connection for re-authorization when TikTok rejects the token, and skips later conversions', async () => {
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 40105, message: 'Access token is incorrect or has been revoked.' }]);
    const { ws, conversion } = await clickedPurchase();
    expect(await pipeline.settled(conversion)).toMatchObject({ status: 'failed', tiktok_code: 40105 });
    expect(await pipeline.repos.tiktokConnections.summary(ws.id)).toMatchObject({ status: 'reauthorization_required' });
    await pipeline.ingest(ws, [landing('later', ttclid(), daysAgo(1))]);
    const [later] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'later' }, { order_id: 'o-after-revoke', total: 1, currency: 'USD' })]);
    expect(await pipeline.settled(later!)).toMatchObject({ status: 'skipped', reason: 'tiktok_reauthorization_required' });
  });

  it('never sends plaintext email or phone in any byte', async () => {
    const { conversion, orderId } = await clickedPurchase();
    await pipeline.settled(conversion);
    const [request] = await requestsFor(orderId);
    expect(request?.rawBody).toBeDefined();
    for (const plaintext of ['erin', 'Erin', 'example.com', '7946', '2079460018']) expect(request?.rawBody).not.toContain(plaintext);
    expect(JSON.parse(request!.rawBody).data[0].page.url).toBe('https://shop.example/thanks?step=done');
  });
});

describe('workspace state recorded as the reason', () => {
  it('sends with the test_event_code in test mode and records it', async () => {
    const { conversion, orderId } = await clickedPurchase({ settings: { testMode: true, testEventCode: 'TEST04030' } });
    expect(await pipeline.settled(conversion)).toMatchObject({ status: 'delivered', reason: 'test_mode', test_mode: true });
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.find((e) => e.eventId === orderId)).toMatchObject({ test: true, testEventCode: 'TEST04030' });
  });

  it('skips when the workspace has no TikTok connection', async () => {
    const { conversion } = await clickedPurchase({ connected: false });
    expect(await pipeline.settled(conversion)).toMatchObject({ status: 'skipped', reason: 'tiktok_not_connected' });
  });

  it('skips when the conversion rule was removed before the workflow ran', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [landing('anon-rule', ttclid(), daysAgo(1))]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'anon-rule' }, { order_id: 'o-rule', total: 1, currency: 'USD' })], { start: false });
    await pipeline.repos.conversionRules.remove(ws.id, 'purchase');
    await pipeline.startConversions([{ workspaceId: ws.id, id: conversion!.id }]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'skipped', reason: 'conversion_rule_removed' });
  });
});

describe('outbox sweeper', () => {
  const sweep = (name: string, options: Record<string, number>) =>
    pipeline.client.workflow.execute('outboxSweeperWorkflow', { taskQueue: pipeline.taskQueue, workflowId: `sweep-${name}`, args: [options] });

  it('wakes the workflow of conversions that were committed but never claimed, and they go once', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [landing('anon-sweep', ttclid(), daysAgo(1))]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'anon-sweep' }, { order_id: 'o-sweep', total: 1, currency: 'USD' })], { start: false });
    expect(conversion).toMatchObject({ status: 'pending', workflow_started_at: null });

    const [first, second] = await Promise.all([sweep(`${conversion!.id}-1`, { minAgeMs: 0 }), sweep(`${conversion!.id}-2`, { minAgeMs: 0 })]);
    expect(first.woken + second.woken).toBeGreaterThanOrEqual(1);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered' });
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.filter((e) => e.eventId === 'o-sweep')).toHaveLength(1);
  });

  it('hands a conversion whose own workflow was lost, before groups, to its workspace’s workflow', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.ingest(ws, [landing('anon-lost', ttclid(), daysAgo(1))]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'anon-lost' }, { order_id: 'o-lost', total: 1, currency: 'USD' })], { start: false });
    await pipeline.repos.conversions.update(conversion!.id, { workflow_id: `conversion-${ws.id}-lost`, workflow_started_at: daysAgo(1) });

    expect(await sweep(`${conversion!.id}-young`, { minAgeMs: 0, restartAfterMs: 2 * 86_400_000 })).toMatchObject({ woken: 0 });
    expect(await pipeline.repos.conversions.find(conversion!.id)).toMatchObject({ status: 'pending', workflow_id: `conversion-${ws.id}-lost` });
    expect(await sweep(`${conversion!.id}-old`, { minAgeMs: 0, restartAfterMs: 3_600_000 })).toMatchObject({ woken: 1 });
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered', workflow_id: `conversion-pipeline-${ws.id}` });
  });
});
