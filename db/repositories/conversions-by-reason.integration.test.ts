import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { planNodes, recordStatements, type SentStatement } from '../../test/helpers/query-plans';
import { createConversionSearchRepository } from './conversion-search';

/**
 * Issue 49: the console's conversions filtered by a reason few or none of them have. Walking the workspace's
 * conversions by time read all of them to fill a page; `conversions_by_reason` holds only those with a reason.
 */
let testDb: TestDatabase;
const WS = 'ws_reason_shop';

beforeAll(async () => {
  testDb = await createTestDatabase();
  await testDb.db('workspaces').insert({ id: WS, name: 'Busy shop' });
  // 6,000 purchases a minute apart: every 100th skipped for want of a click, three outside the attribution window.
  await testDb.db.raw(
    `INSERT INTO events (workspace_id, message_id, type, event_name, occurred_at, received_at, message)
     SELECT ?, 'bulk-' || g, 'track', 'purchase', ?::timestamptz - g * interval '1 minute', ?::timestamptz - g * interval '1 minute', '{}'::jsonb FROM generate_series(1, 6000) g`,
    [WS, new Date(), new Date()],
  );
  await testDb.db.raw(
    `INSERT INTO conversions (workspace_id, event_row_id, event_received_on, message_id, source_event, tiktok_event, event_id, event_time, status, reason, workflow_id)
     SELECT workspace_id, id, received_on, message_id, 'purchase', 'CompletePayment', message_id, occurred_at,
            CASE WHEN message_id IN ('bulk-10', 'bulk-2000', 'bulk-5990') OR id % 100 = 0 THEN 'skipped' ELSE 'delivered' END,
            CASE WHEN message_id IN ('bulk-10', 'bulk-2000', 'bulk-5990') THEN 'click_outside_attribution_window' WHEN id % 100 = 0 THEN 'no_ttclid' END, 'bulk'
     FROM events WHERE workspace_id = ?`,
    [WS],
  );
  await testDb.db.raw('ANALYZE conversions');
});
afterAll(() => testDb.destroy());

/** The search's rows, and the indexes PostgreSQL reads for its statement. */
async function searchAndPlan(q: Parameters<ReturnType<typeof createConversionSearchRepository>['search']>[1]) {
  const { result: rows, statements } = await recordStatements(testDb.db, () => createConversionSearchRepository(testDb.db).search(WS, q));
  const indexes = (await planNodes(testDb.db, statements[0] as SentStatement)).map((node) => node['Index Name']).filter((name) => name !== undefined);
  return { rows, indexes };
}

describe('conversions filtered by reason', () => {
  it('reads the few with a rare reason through their own index, newest first', async () => {
    const { rows, indexes } = await searchAndPlan({ status: 'skipped', reason: 'click_outside_attribution_window', limit: 51 });
    expect(rows.map((r) => r.message_id)).toEqual(['bulk-10', 'bulk-2000', 'bulk-5990']);
    expect(indexes).toContain('conversions_by_reason');
    expect(indexes).not.toContain('conversions_by_event_time');
  });

  it('finds nothing for a reason none has without walking the workspace', async () => {
    const { rows, indexes } = await searchAndPlan({ reason: 'internal_error', limit: 51 });
    expect(rows).toEqual([]);
    expect(indexes).toContain('conversions_by_reason');
    expect(indexes).not.toContain('conversions_by_event_time');
  });

  it('pages through a reason in time order', async () => {
    const first = await searchAndPlan({ reason: 'no_ttclid', limit: 20 });
    const last = first.rows.at(-1) as { event_time: Date; id: string };
    const next = await searchAndPlan({ reason: 'no_ttclid', limit: 20, before: { eventTime: last.event_time, id: last.id } });
    const times = [...first.rows, ...next.rows].map((r) => r.event_time.getTime());
    expect(times).toHaveLength(40);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set([...first.rows, ...next.rows].map((r) => r.reason))).toEqual(new Set(['no_ttclid']));
  });
});
