import { EVENT_TRACK_PATH } from '../devstack/tiktok-fake';
import type { ConversionRow } from '../db/types';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { killHard, spawnWorker } from './helpers/worker-child';

/**
 * kill -9 of the worker at the exact moments around TikTok's answer, made deterministic by a test-only hook that stops
 * the worker there. Its workflow task never completes, so the steps it ran are not in the workflow's history: the
 * next worker runs them again (after the server's 10 s workflow-task timeout).
 */
let pipeline: TestPipeline;
beforeEach(async () => {
  pipeline = await TestPipeline.start({ worker: false });
});
afterEach(() => pipeline.close());

async function purchases(prefix: string, count: number): Promise<ConversionRow[]> {
  const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  await pipeline.ingest(ws, Array.from({ length: count }, (_, i) => landing(`${prefix}-visitor-${i}`, ttclid(), daysAgo(1))));
  return pipeline.ingest(
    ws,
    Array.from({ length: count }, (_, i) => track('purchase', { anonymousId: `${prefix}-visitor-${i}` }, { order_id: `${prefix}-${i}`, total: 5, currency: 'USD' })),
  );
}

async function sendsOf(eventId: string) {
  const { requests, events } = await pipeline.fake.receivedEvents();
  return {
    requests: requests.filter((r) => r.path === EVENT_TRACK_PATH && r.rawBody.includes(`"${eventId}"`)).length,
    counted: events.filter((e) => e.eventId === eventId && !e.deduplicated).length,
  };
}

/** One more conversion through the same workflow after the restart: once it is delivered, the interrupted group was run again. */
async function afterRecovery(workspaceId: string): Promise<void> {
  const ws = (await pipeline.repos.workspaces.find(workspaceId))!;
  await pipeline.ingest(ws, [landing('late-visitor', ttclid(), daysAgo(1))]);
  const [late] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'late-visitor' }, { order_id: 'late-order', total: 1, currency: 'USD' })]);
  expect(await pipeline.settled(late!)).toMatchObject({ status: 'delivered' });
}

describe('a worker killed around TikTok’s answer', () => {
  it('after TikTok accepted a group and the answer was recorded: the next worker sends nothing again', async () => {
    const worker = await spawnWorker(pipeline, 'answer-recorded');
    const conversions = await purchases('recorded', 4);
    await worker.waitForLine(/^PAUSED AT answer-recorded$/);
    await killHard(worker);

    await pipeline.startWorker();
    await afterRecovery(conversions[0]!.workspace_id);
    for (const conversion of conversions) {
      expect(await pipeline.settled(conversion)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(await sendsOf(conversion.event_id)).toEqual({ requests: 1, counted: 1 });
    }
  });

  it('after TikTok accepted but before the answer was recorded: sent again with the same event_id, counted once', async () => {
    const worker = await spawnWorker(pipeline, 'tiktok-answered');
    const conversions = await purchases('unrecorded', 3);
    await worker.waitForLine(/^PAUSED AT tiktok-answered$/);
    await killHard(worker);

    await pipeline.startWorker();
    await afterRecovery(conversions[0]!.workspace_id);
    for (const conversion of conversions) {
      const settled = await pipeline.settled(conversion);
      expect(settled).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(await sendsOf(conversion.event_id)).toEqual({ requests: 2, counted: 1 });
      // The first request's fate stays visible as unknown: sent, never answered as far as Signalbox knows.
      const [lost] = (await pipeline.database.db('tiktok_requests').whereRaw('? = ANY(conversion_ids)', [conversion.id]).orderBy('id')) as { id: string; answered_at: Date | null }[];
      expect(lost?.answered_at).toBeNull();
      expect(settled.delivery_request_id).not.toBe(lost?.id);
    }
  });
});
