import type { FastifyInstance } from 'fastify';
import { sendPastEventsBatch } from '../activities/past-events';
import { pastEventsPreview, pastEventsRun } from '../contract/past-event-views';
import type { PastEventRun } from '../db/repositories/past-events';
import type { Workspace } from '../db/repositories/workspaces';
import { createPastEventsStarter } from '../temporal/past-events';
import { runAgainst } from './helpers/cli';
import { closeAll } from './helpers/close-all';
import { adminCall } from './helpers/console-client';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { buildTestApp } from './helpers/test-app';

jest.setTimeout(90_000);

let pipeline: TestPipeline;
let app: FastifyInstance;

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  app = buildTestApp(pipeline.database.db, { repos: pipeline.repos, startPastEvents: createPastEventsStarter(pipeline.client, pipeline.taskQueue) }).app;
});
afterAll(() =>
  closeAll(
    () => app?.close(),
    () => pipeline?.close(),
  ),
);

const rulePath = (workspace: Workspace, event: string) => `/admin/workspaces/${workspace.id}/conversion-rules/${encodeURIComponent(event)}`;

async function finished(workspace: Workspace, event: string): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const run = pastEventsRun.parse((await adminCall(app, 'GET', `${rulePath(workspace, event)}/backfill`)).json());
    if (run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error(`the past events of ${event} are still being sent after a minute`);
  }
}

const conversionsOf = (workspace: Workspace) => pipeline.database.db('conversions').where({ workspace_id: workspace.id }).orderBy('id');

describe('send the past events when a rule is added', () => {
  it('previews how many, sends each once under the event_id ingest would have given it, and sends nothing new when run again', async () => {
    const shop = await pipeline.workspace({ settings: { attributionWindowDays: 7 } });
    const visitor = 'anon-past-1';
    const click = ttclid();
    const cart = (at: Date, properties: Record<string, unknown> = {}) => ({ ...track('add_to_cart', { anonymousId: visitor }, properties), timestamp: at.toISOString() });
    const withoutEventId = cart(daysAgo(1));
    await pipeline.ingest(shop, [
      landing(visitor, click, daysAgo(3)),
      cart(daysAgo(2), { event_id: 'cart-1' }),
      withoutEventId,
      // The same event_id again (the browser retried): one conversion.
      cart(daysAgo(1), { event_id: 'cart-1' }),
      // Older than the days asked for.
      cart(daysAgo(9), { event_id: 'cart-old' }),
      track('view_content', { anonymousId: visitor }),
    ]);
    expect(await conversionsOf(shop)).toHaveLength(0);

    expect((await adminCall(app, 'PUT', rulePath(shop, 'add_to_cart'), {})).statusCode).toBe(200);
    const preview = await adminCall(app, 'POST', `${rulePath(shop, 'add_to_cart')}/backfill`, { days: 7, dryRun: true });
    expect([preview.statusCode, pastEventsPreview.parse(preview.json()).events, preview.json().conversions]).toEqual([200, 2, 2]);

    const started = await adminCall(app, 'POST', `${rulePath(shop, 'add_to_cart')}/backfill`, { days: 7 });
    expect([started.statusCode, pastEventsRun.parse(started.json()).status, started.json().conversionsToSend]).toEqual([202, 'running', 2]);
    expect(await finished(shop, 'add_to_cart')).toMatchObject({ status: 'done', eventsScanned: 3, conversionsCreated: 2 });

    const conversions = await conversionsOf(shop);
    expect(conversions.map((c) => [c.tiktok_event, c.event_id]).sort()).toEqual([
      ['AddToCart', 'cart-1'],
      ['AddToCart', withoutEventId.messageId],
    ].sort());
    const settled = await Promise.all(conversions.map((c) => pipeline.settled(c)));
    expect(settled.map((c) => c.status)).toEqual(['delivered', 'delivered']);
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.map((e) => [e.event, e.eventId]).sort()).toEqual([
      ['AddToCart', 'cart-1'],
      ['AddToCart', withoutEventId.messageId],
    ].sort());

    // Again: every event has its conversion already.
    expect((await adminCall(app, 'POST', `${rulePath(shop, 'add_to_cart')}/backfill`, { days: 7, dryRun: true })).json()).toMatchObject({ events: 0, conversions: 0 });
    expect((await adminCall(app, 'POST', `${rulePath(shop, 'add_to_cart')}/backfill`, { days: 7 })).statusCode).toBe(202);
    expect(await finished(shop, 'add_to_cart')).toMatchObject({ status: 'done', eventsScanned: 3, conversionsCreated: 0 });
    expect(await conversionsOf(shop)).toHaveLength(2);

    const [logged] = await pipeline.repos.changeLog.list(shop.id, { limit: 1 });
    expect([logged?.action, logged?.target, logged?.after]).toEqual(['rule.send_past', 'add_to_cart', { days: 7, events: 0, conversions: 0 }]);
  });

  it('refuses days past the attribution window, TikTok’s 28 days or the events kept, naming the field', async () => {
    const shop = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { attributionWindowDays: 7, eventRetentionDays: 30 } });
    const send = (days: unknown) => adminCall(app, 'POST', `${rulePath(shop, 'purchase')}/backfill`, { days, dryRun: true });
    const tooFar = await send(8);
    expect([tooFar.statusCode, tooFar.json().message]).toEqual([400, "days must be at most 7, not 8: the workspace's attribution window is 7 days"]);
    await pipeline.repos.workspaces.updateSettings(shop.id, { attributionWindowDays: 28, eventRetentionDays: 3 });
    expect((await send(4)).json().message).toBe('days must be at most 3, not 4: raw events are kept 3 days (event retention)');
    expect((await send(1.5)).json().message).toBe('days must be a whole number of days');
    const noRule = await adminCall(app, 'POST', `${rulePath(shop, 'lead')}/backfill`, { days: 1 });
    expect([noRule.statusCode, noRule.json().message]).toEqual([404, 'no conversion rule for event lead: add the rule, then send its past events']);
  });

  it('previews and sends from the command line, a refusal naming --days', async () => {
    const shop = await pipeline.workspace({ settings: { attributionWindowDays: 7 } });
    await pipeline.ingest(shop, [{ ...track('purchase', { userId: 'cli-buyer' }, { order_id: 'order-cli-1', total: 12 }), timestamp: daysAgo(1).toISOString() }]);
    await pipeline.repos.conversionRules.put(shop.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: 'USD' });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const preview = await runAgainst(url, ['rules', 'send-past', shop.id, 'purchase', '--days', '2', '--preview']);
    expect([preview.code, preview.stdout]).toEqual([0, '1 stored event of purchase from the past 2 days would be sent as 1 conversion. Run again without --preview to send them.']);
    const refused = await runAgainst(url, ['rules', 'send-past', shop.id, 'purchase', '--days', '8']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--days must be at most 7, not 8: the workspace's attribution window is 7 days");
    const sent = await runAgainst(url, ['rules', 'send-past', shop.id, 'purchase', '--days', '2']);
    expect([sent.code, sent.stdout]).toEqual([0, "Sending the past 2 days of purchase to TikTok on a worker: 1 stored event as 1 conversion. The console's Rules page shows how far it got."]);
    expect(await finished(shop, 'purchase')).toMatchObject({ status: 'done', conversionsCreated: 1 });
    expect((await conversionsOf(shop)).map((c) => c.event_id)).toEqual(['order-cli-1']);
  });

  it('makes no doubles when batches of one run race or are retried after their commit', async () => {
    const shop = await pipeline.workspace({ rules: [{ sourceEvent: 'lead', tiktokEvent: 'SubmitForm', alsoSendAs: [] }], connected: false });
    await pipeline.repos.conversionRules.remove(shop.id, 'lead');
    const leads = Array.from({ length: 5 }, (_, i) => ({ ...track('lead', { userId: `user-${i}` }), timestamp: daysAgo(1).toISOString() }));
    await pipeline.ingest(shop, leads, { start: false });
    await pipeline.repos.conversionRules.put(shop.id, { sourceEvent: 'lead', tiktokEvent: 'SubmitForm', alsoSendAs: ['Contact'], valueSource: 'none', fixedValue: null, currency: null });
    const until = new Date();
    const run = (await pipeline.repos.pastEvents.create({
      workspaceId: shop.id,
      sourceEvent: 'lead',
      days: 2,
      since: daysAgo(2, until),
      until,
      requestedBy: 'operator',
      eventsToSend: 5,
      conversionsToSend: 10,
    })) as PastEventRun;

    // Two attempts of each batch at once, as a retried activity whose first attempt still runs; then one more after the end.
    for (let done = false; !done; ) {
      const reports = await Promise.all([1, 2].map(() => sendPastEventsBatch(pipeline.deps, { runId: run.id, batchSize: 2 })));
      done = reports.some((r) => r.done);
    }
    expect(await sendPastEventsBatch(pipeline.deps, { runId: run.id, batchSize: 2 })).toEqual({ done: true, scanned: 0, created: 0 });

    const conversions = await conversionsOf(shop);
    const expected = leads.flatMap((m) => [['SubmitForm', m.messageId], ['Contact', `${m.messageId}:Contact`]]);
    expect(conversions.map((c) => [c.tiktok_event, c.event_id]).sort()).toEqual(expected.sort());
    expect((await pipeline.repos.pastEvents.latest(shop.id)).get('lead')).toMatchObject({ status: 'done', eventsScanned: 5, conversionsCreated: 10 });
  });
});
