import { createDatabase } from '../db/knex';
import { PENDING_BACKLOG } from '../db/repositories/conversions';
import type { Workspace } from '../db/repositories/workspaces';
import { track } from '../test/helpers/messages';
import { TestPipeline } from '../test/helpers/pipeline';
import { BACKLOG_WORKSPACES } from './backlog-metrics';
import { createWorkerMetrics } from './metrics';

/**
 * Twelve workspaces with a backlog: the i-th has i + 1 pending conversions, created 12 - i minutes ago, so the most
 * are in the last ones and the oldest in the first ones.
 */
let pipeline: TestPipeline;
const shops: Workspace[] = [];

beforeAll(async () => {
  pipeline = await TestPipeline.start({ worker: false });
  for (let i = 0; i < 12; i++) {
    const shop = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const orders = Array.from({ length: i + 1 }, (_, n) => track('purchase', { anonymousId: `buyer-${n}` }, { order_id: `order-${i}-${n}`, total: 5, currency: 'USD' }));
    await pipeline.ingest(shop, orders, { start: false });
    await pipeline.database.db('conversions').where({ workspace_id: shop.id }).update({ created_at: pipeline.database.db.raw(`now() - interval '${12 - i} minutes'`) });
    shops.push(shop);
  }
  // One more workspace whose conversions are all done: no backlog, no series.
  const settled = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  await pipeline.ingest(settled, [track('purchase', { anonymousId: 'done' }, { order_id: 'done-1', total: 5, currency: 'USD' })], { start: false });
  await pipeline.database.db('conversions').where({ workspace_id: settled.id }).update({ status: 'delivered', completed_at: pipeline.database.db.fn.now() });
});
afterAll(() => pipeline?.close());

const minutes = (n: number) => ({ atLeast: n * 60, below: n * 60 + 30 });

/** `name{labels} value` lines of the Prometheus text, as a map. */
function samples(text: string, metric: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = line.match(new RegExp(`^${metric}(\\{[^}]*\\})? (\\S+)$`));
    if (match) found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

describe('the backlog on the worker’s /metrics', () => {
  it('reads the pending conversions and the age of the oldest, in total and for the workspaces with the most and with the oldest', async () => {
    const backlog = await pipeline.repos.conversions.pendingBacklog(2);
    expect(backlog.total).toBe(78);
    expect(backlog.oldestAgeSeconds).toBeGreaterThanOrEqual(minutes(12).atLeast);
    expect(backlog.oldestAgeSeconds).toBeLessThan(minutes(12).below);
    // The two with the most (11 and 10), then the two with the oldest (0 and 1).
    expect(backlog.workspaces.map(({ workspaceId, pending }) => [workspaceId, pending])).toEqual([
      [shops[11]!.id, 12],
      [shops[10]!.id, 11],
      [shops[1]!.id, 2],
      [shops[0]!.id, 1],
    ]);
    const first = backlog.workspaces.find((w) => w.workspaceId === shops[0]!.id)!;
    expect(first.oldestAgeSeconds).toBeGreaterThanOrEqual(minutes(12).atLeast);
    expect(first.oldestAgeSeconds).toBeLessThan(minutes(12).below);
  });

  it('exports them as gauges, with one series per workspace for at most twice BACKLOG_WORKSPACES workspaces', async () => {
    const metrics = createWorkerMetrics((top) => pipeline.repos.conversions.pendingBacklog(top));
    const text = await metrics.registry.metrics();
    expect(samples(text, 'signalbox_conversions_pending')).toEqual(new Map([['', 78]]));
    expect(samples(text, 'signalbox_conversions_pending_oldest_age_seconds').get('')).toBeGreaterThanOrEqual(minutes(12).atLeast);

    const perWorkspace = samples(text, 'signalbox_workspace_conversions_pending');
    // The five with the most (7–11) and the five with the oldest (0–4); not 5 and 6, nor the one without a backlog.
    const expected = [...shops.slice(7), ...shops.slice(0, 5)];
    expect(perWorkspace.size).toBe(2 * BACKLOG_WORKSPACES);
    expect(new Map(expected.map((shop) => [`{workspace="${shop.id}"}`, shops.indexOf(shop) + 1]))).toEqual(perWorkspace);
    const ages = samples(text, 'signalbox_workspace_conversions_pending_oldest_age_seconds');
    expect([...ages.keys()].sort()).toEqual([...perWorkspace.keys()].sort());
    expect(ages.get(`{workspace="${shops[11]!.id}"}`)).toBeGreaterThanOrEqual(minutes(1).atLeast);
    expect(ages.get(`{workspace="${shops[11]!.id}"}`)).toBeLessThan(minutes(1).below);

    // Once a workspace's backlog is gone, so is its series.
    await pipeline.database.db('conversions').where({ workspace_id: shops[11]!.id }).update({ status: 'delivered' });
    const after = await metrics.registry.metrics();
    expect(samples(after, 'signalbox_conversions_pending').get('')).toBe(66);
    expect(samples(after, 'signalbox_workspace_conversions_pending').has(`{workspace="${shops[11]!.id}"}`)).toBe(false);
    expect(samples(after, 'signalbox_workspace_conversions_pending').get(`{workspace="${shops[6]!.id}"}`)).toBe(7);
  });

  it('reads them from the partial index of pending conversions, not the table, however many conversions are done', async () => {
    // 50,000 settled conversions beside the 78 pending ones, as a table looks after a while (written without the services' deadlines).
    const db = createDatabase({ url: pipeline.database.url, poolMax: 1 });
    try {
      await db.raw(
        `INSERT INTO conversions (workspace_id, event_row_id, message_id, source_event, tiktok_event, event_id, event_time, status, workflow_id, completed_at)
         SELECT c.workspace_id, c.event_row_id, 'settled-' || g, c.source_event, c.tiktok_event, 'settled-' || g, c.event_time, 'delivered', 'settled-' || g, now()
         FROM generate_series(1, 50000) g, (SELECT * FROM conversions LIMIT 1) c`,
      );
      await db.raw('VACUUM ANALYZE conversions');
    } finally {
      await db.destroy();
    }
    const { db: services } = pipeline.database;
    const [{ 'QUERY PLAN': [plan] }] = (await services.raw(`EXPLAIN (FORMAT JSON) ${PENDING_BACKLOG}`, [BACKLOG_WORKSPACES, BACKLOG_WORKSPACES])).rows;
    const scans: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string }[] = [];
    const walk = (node: { Plans?: unknown[] } & Record<string, unknown>) => {
      if (node['Relation Name'] !== undefined) scans.push(node as (typeof scans)[number]);
      for (const child of node.Plans ?? []) walk(child as typeof node);
    };
    walk(plan.Plan);
    expect(scans).toEqual([expect.objectContaining({ 'Node Type': 'Index Only Scan', 'Relation Name': 'conversions', 'Index Name': 'conversions_claimable' })]);
  });
});
