import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { EVENT_TRACK_PATH } from '../adplatform/tiktok-fake';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline, workflowBundle } from './helpers/pipeline';

/**
 * Runs one conversion per kind of outcome and replays each history against the current workflow code. With
 * CAPTURE_HISTORIES=1 it also stores them in test/histories, whose replay (workflows/replay.test.ts) then guards every
 * later change against non-determinism. Capture again only when a change is meant to be incompatible.
 */
let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
});
afterAll(() => pipeline.close());

const outcomes: [string, () => Promise<void>, string][] = [
  ['delivered-after-retry', () => pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 50002 }]), 'purchase'],
  ['failed-rejected', () => pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 40002, message: 'Invalid value for event_id' }]), 'purchase'],
  ['skipped-no-click', async () => undefined, 'purchase-without-click'],
];

it.each(outcomes)('replays the history of a conversion %s', async (name, arrange, kind) => {
  const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  if (kind === 'purchase') await pipeline.ingest(ws, [landing(`anon-${name}`, ttclid(), daysAgo(1))]);
  await arrange();
  const [conversion] = await pipeline.ingest(ws, [track('purchase', { anonymousId: `anon-${name}` }, { order_id: `o-${name}`, total: 5, currency: 'USD' })]);
  await pipeline.settled(conversion!);
  const history = await pipeline.client.workflow.getHandle(conversion!.workflow_id).fetchHistory();

  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history);
  if (process.env.CAPTURE_HISTORIES === '1') {
    writeFileSync(path.join(__dirname, 'histories', `conversion-${name}.json`), historyToJSON(history));
  }
});
