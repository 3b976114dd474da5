import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { EVENT_TRACK_PATH } from '../devstack/tiktok-fake';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline, workflowBundle } from './helpers/pipeline';

/**
 * Runs a workspace's group workflow through its kinds of steps (woken, a group delivered after a transient failure and
 * the backoff timer, a skipped conversion, idle) and replays the history against the current workflow code. With
 * CAPTURE_HISTORIES=1 it also stores it in test/histories, whose replay (workflows/replay.test.ts) then guards every
 * later change against non-determinism. Capture again only when a change is meant to be incompatible.
 */
let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
});
afterAll(() => pipeline.close());

it('replays the history of a group workflow: delivered after a retry, skipped, idle', async () => {
  const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  await pipeline.ingest(ws, [landing('anon-history', ttclid(), daysAgo(1))]);
  await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 50002 }]);
  const [delivered] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'anon-history' }, { order_id: 'o-history', total: 5, currency: 'USD' })]);
  expect(await pipeline.settled(delivered!)).toMatchObject({ status: 'delivered', attempts: 2 });
  const [skipped] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'never-clicked' }, { order_id: 'o-history-skipped', total: 5, currency: 'USD' })]);
  expect(await pipeline.settled(skipped!)).toMatchObject({ status: 'skipped', reason: 'no_ttclid' });
  const idle = () => pipeline.database.db('conversion_pipeline_partitions').where({ workspace_id: ws.id, partition: 0, idle: true }).first();
  while ((await idle()) === undefined) await new Promise((resolve) => setTimeout(resolve, 50));

  const history = await pipeline.client.workflow.getHandle(delivered!.workflow_id).fetchHistory();
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history);
  if (process.env.CAPTURE_HISTORIES === '1') {
    writeFileSync(path.join(__dirname, 'histories', 'pipeline-delivered-retried-skipped.json'), historyToJSON(history));
  }
});
