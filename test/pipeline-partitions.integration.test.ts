import { setTimeout as sleep } from 'node:timers/promises';
import { prepareConversionGroup } from '../activities/group/prepare-group';
import { createWorkspaceSettingsService } from '../api/services/settings/workspace-settings';
import type { Workspace } from '../db/repositories/workspaces';
import type { ConversionRow } from '../db/types';
import { conversionPipelineWorkflowId } from '../domain/workflow-id';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

/**
 * A workspace split among several group workflows (`pipelinePartitions`), on two worker instances sharing the task
 * queue: each partition claims only its conversions, a change of the count while conversions flow moves them between
 * partitions, and the claim alone keeps any conversion from being processed twice.
 */
let pipeline: TestPipeline;
beforeAll(async () => {
  // Small groups: each partition's workflow goes through many of them while the load and the changes go on.
  pipeline = await TestPipeline.start({ pipeline: { maxGroupSize: 20 } });
  await pipeline.startWorker();
});
afterAll(() => pipeline.close());

const settings = () => createWorkspaceSettingsService({ db: pipeline.database.db, repos: pipeline.repos, pipelines: pipeline.waker, onChange: () => {} });

async function setPartitions(workspaceId: string, count: number): Promise<Workspace> {
  const current = (await pipeline.repos.workspaces.find(workspaceId)) as Workspace;
  return settings().update('operator', current, { pipelinePartitions: count });
}

/** A workspace whose workflows have not run yet: ingest, the sweeper or a change of the count starts them. */
function shop(partitions: number): Promise<Workspace> {
  return pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { pipelinePartitions: partitions } });
}

/** `count` clicked visitors buying once each, in one request (click and purchase together), as ingest commits them. */
async function purchases(ws: Workspace, prefix: string, count: number, options: { start?: boolean } = {}): Promise<ConversionRow[]> {
  const visitors = Array.from({ length: count }, (_, i) => `${prefix}-visitor-${i}`);
  return pipeline.ingest(
    ws,
    visitors.flatMap((visitor, i) => [landing(visitor, ttclid(), daysAgo(1)), track('purchase', { anonymousId: visitor }, { order_id: `${prefix}-${i}`, total: 5, currency: 'USD' })]),
    options,
  );
}

/** What the database says each conversion's partition is among `count` (the claim's own expression). */
async function partitionsOf(conversions: readonly ConversionRow[], count: number): Promise<Map<string, number>> {
  const { rows } = await pipeline.database.db.raw<{ rows: { id: string; partition: number }[] }>(
    'SELECT id, mod(abs(hashtext(id::text)::bigint), ?)::int AS partition FROM conversions WHERE id = ANY(?::uuid[])',
    [count, conversions.map((c) => c.id)],
  );
  return new Map(rows.map((row) => [row.id, row.partition]));
}

/** Every conversion delivered, and each of their events received by TikTok exactly once (never sent twice). */
async function expectEachDeliveredOnce(conversions: readonly ConversionRow[]): Promise<ConversionRow[]> {
  const settled = await Promise.all(conversions.map((c) => pipeline.settled(c, 120_000)));
  expect(settled.filter((c) => c.status !== 'delivered').map((c) => ({ id: c.id, status: c.status, reason: c.reason }))).toEqual([]);
  const received = new Map<string, number>();
  for (const event of (await pipeline.fake.receivedEvents()).events) if (event.eventId) received.set(event.eventId, (received.get(event.eventId) ?? 0) + 1);
  expect(settled.filter((c) => received.get(c.event_id) !== 1).map((c) => ({ eventId: c.event_id, received: received.get(c.event_id) ?? 0 }))).toEqual([]);
  return settled;
}

async function workflowStatus(workspaceId: string, partition: number): Promise<string> {
  return (await pipeline.client.workflow.getHandle(conversionPipelineWorkflowId(workspaceId, partition)).describe()).status.name;
}

describe('a workspace split among several group workflows', () => {
  it('claims each conversion only in its own partition, with the partition’s workflow recorded on it', async () => {
    const ws = await shop(2);
    const conversions = await purchases(ws, 'own', 40, { start: false });
    const wholeGroups = { ...pipeline.deps, pipeline: { ...pipeline.deps.pipeline, maxGroupSize: 100 } };
    const claims = await Promise.all(
      [0, 1].map((partition) => prepareConversionGroup(wholeGroups, { workspaceId: ws.id, partition, claimId: `own-${partition}:0`, runId: `own-${partition}`, fill: false })),
    );
    expect(claims.map((c) => c.claimed).reduce((a, b) => a + b)).toBe(40);

    const expected = await partitionsOf(conversions, 2);
    for (const conversion of conversions) {
      const row = (await pipeline.repos.conversions.find(conversion.id)) as ConversionRow;
      const partition = expected.get(conversion.id) as number;
      expect(row).toMatchObject({ claim_id: `own-${partition}:0`, workflow_id: conversionPipelineWorkflowId(ws.id, partition), workflow_run_id: `own-${partition}` });
    }
  });

  it('never lets two workflows that disagree on the partition count hold the same conversion: one of them loses the claim', async () => {
    const ws = await shop(1);
    for (let round = 0; round < 5; round++) {
      const conversions = await purchases(ws, `race-${round}`, 30, { start: false });
      // Partition 0 under the old count (every conversion) and partition 1 under a new count of 2, at the same moment.
      const [asOne, asTwo] = await Promise.all([
        pipeline.repos.conversionGroups.claim({ workspaceId: ws.id, partition: 0, partitions: 1, claimId: `race-${round}-a:0`, runId: `race-${round}-a`, limit: 100, leaseMs: 60_000 }),
        pipeline.repos.conversionGroups.claim({ workspaceId: ws.id, partition: 1, partitions: 2, claimId: `race-${round}-b:0`, runId: `race-${round}-b`, limit: 100, leaseMs: 60_000 }),
      ]);
      expect(asOne.filter((id) => asTwo.includes(id))).toEqual([]);
      expect([...asOne, ...asTwo].sort()).toEqual(conversions.map((c) => c.id).sort());
    }
  });

  it('ends the workflow of a partition beyond a lowered count, and gives back what its run still held to the partitions that remain', async () => {
    const ws = await shop(4);
    const conversions = await purchases(ws, 'retired', 40, { start: false });
    // Partition 3's run claimed its share in a workflow task that a crash kept out of history (10-minute lease).
    const lost = { workspaceId: ws.id, partition: 3, claimId: 'retired-run:7', runId: 'retired-run', fill: false };
    const held = (await prepareConversionGroup(pipeline.deps, lost)).claimed;
    expect(held).toBeGreaterThan(0);

    await setPartitions(ws.id, 2);
    expect(await prepareConversionGroup(pipeline.deps, { ...lost, claimId: 'retired-run:1' })).toMatchObject({ claimed: 0, retired: true });
    expect(await pipeline.database.db('conversions').where({ workflow_run_id: 'retired-run' }).whereNotNull('claim_id').count({ n: '*' })).toEqual([{ n: '0' }]);

    const settled = await expectEachDeliveredOnce(conversions);
    const expected = await partitionsOf(conversions, 2);
    expect(settled.filter((c) => c.workflow_id !== conversionPipelineWorkflowId(ws.id, expected.get(c.id) as number))).toEqual([]);
  });

  it('delivers a load of several hundred conversions through 4 partitions on two workers, each once, every partition taking part', async () => {
    const ws = await shop(4);
    const conversions: ConversionRow[] = [];
    const startedAt = Date.now();
    for (let batch = 0; batch < 16; batch++) conversions.push(...(await purchases(ws, `load-${batch}`, 25)));
    const settled = await expectEachDeliveredOnce(conversions);
    const elapsedMs = Date.now() - startedAt;

    const expected = await partitionsOf(conversions, 4);
    expect(settled.filter((c) => c.workflow_id !== conversionPipelineWorkflowId(ws.id, expected.get(c.id) as number))).toEqual([]);
    const perWorkflow = new Map<string, number>();
    for (const c of settled) perWorkflow.set(c.workflow_id, (perWorkflow.get(c.workflow_id) ?? 0) + 1);
    expect([...perWorkflow.keys()].sort()).toEqual([0, 1, 2, 3].map((p) => conversionPipelineWorkflowId(ws.id, p)).sort());
    console.log(`4 partitions, 2 workers, groups of 20: ${settled.length} conversions ingested and delivered in ${elapsedMs} ms; per partition ${[...perWorkflow.values()].join(', ')}`);
  });

  it('keeps delivering each conversion once while the count changes from 4 to 2 and then to 3 under load; the partition that went ends', async () => {
    const ws = await shop(4);
    const conversions: ConversionRow[] = [];
    const changes: Record<number, number> = { 5: 2, 10: 3 };
    for (let batch = 0; batch < 15; batch++) {
      if (changes[batch] !== undefined) await setPartitions(ws.id, changes[batch] as number);
      conversions.push(...(await purchases(ws, `change-${batch}`, 20)));
      await sleep(100);
    }
    await expectEachDeliveredOnce(conversions);

    for (let status = await workflowStatus(ws.id, 3); status !== 'COMPLETED'; status = await workflowStatus(ws.id, 3)) {
      expect(status).toBe('RUNNING');
      await sleep(100);
    }
    expect(await Promise.all([0, 1, 2].map((partition) => workflowStatus(ws.id, partition)))).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);
    const stillClaimed = await pipeline.database.db('conversions').where({ workspace_id: ws.id }).whereNotNull('claim_id').count({ n: '*' });
    expect(stillClaimed).toEqual([{ n: '0' }]);
  });

  it('the sweeper wakes every partition that has conversions nobody claimed', async () => {
    const ws = await shop(3);
    const conversions = await purchases(ws, 'swept', 30, { start: false });
    const report = await pipeline.client.workflow.execute('outboxSweeperWorkflow', { taskQueue: pipeline.taskQueue, workflowId: `sweep-${ws.id}`, args: [{ minAgeMs: 0 }] });
    expect(report.woken).toBeGreaterThanOrEqual(3);
    const settled = await expectEachDeliveredOnce(conversions);
    expect(new Set(settled.map((c) => c.workflow_id))).toEqual(new Set([0, 1, 2].map((p) => conversionPipelineWorkflowId(ws.id, p))));
  });
});
