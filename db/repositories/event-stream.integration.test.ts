import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { planNodes, recordStatements, type SentStatement } from '../../test/helpers/query-plans';
import { createEventStreamRepository } from './event-stream';

/** The event debugger's opening: the newest events of the last hour of one workspace, in a store shared with others. */
let testDb: TestDatabase;
const BUSY = 'ws_stream_busy';
const QUIET = 'ws_stream_quiet';

beforeAll(async () => {
  testDb = await createTestDatabase();
  await testDb.db('workspaces').insert([
    { id: BUSY, name: 'Busy shop' },
    { id: QUIET, name: 'Quiet shop' },
  ]);
  // Received in the order of their IDs, by the database's clock, which the debugger's hour is read by. The quiet shop: 5,000 events 90 to 60 minutes ago, then 3 in the last hour,
  // 30, 20 and 10 minutes ago; the busy shop: 5,000 over the last 50 minutes.
  await testDb.db.raw(
    `INSERT INTO events (workspace_id, message_id, type, event_name, occurred_at, received_at, message)
     SELECT workspace_id, message_id, 'track', 'page', at, at, '{}'::jsonb FROM (
       SELECT ? AS workspace_id, 'quiet-old-' || g AS message_id, now() - interval '90 minutes' + g * interval '359 milliseconds' AS at FROM generate_series(1, 5000) g
       UNION ALL SELECT ?, 'quiet-' || g, now() - (40 - g * 10) * interval '1 minute' FROM generate_series(1, 3) g
       UNION ALL SELECT ?, 'busy-' || g, now() - (5001 - g) * interval '600 milliseconds' FROM generate_series(1, 5000) g
     ) received ORDER BY at`,
    [QUIET, QUIET, BUSY],
  );
  await testDb.db.raw('ANALYZE events');
});
afterAll(() => testDb.destroy());

const messageIds = (rows: { message_id: string }[]) => rows.map((row) => row.message_id);

describe('the debugger opening on the newest events of the hour', () => {
  it("gives a busy workspace's newest events, oldest first", async () => {
    const latest = await createEventStreamRepository(testDb.db).latest(BUSY, 20);
    expect(messageIds(latest)).toEqual(Array.from({ length: 20 }, (_, i) => `busy-${4981 + i}`));
    expect(latest.map((row) => BigInt(row.id))).toEqual(latest.map((row) => BigInt(row.id)).sort((a, b) => (a < b ? -1 : 1)));
  });

  it("finds a quiet workspace's few events of the hour without reading the others'", async () => {
    const { result, statements } = await recordStatements(testDb.db, () => createEventStreamRepository(testDb.db).latest(QUIET, 20));
    expect(messageIds(result)).toEqual(['quiet-1', 'quiet-2', 'quiet-3']);
    const scans = (await planNodes(testDb.db, statements[0] as SentStatement, { analyze: true })).filter((node) => String(node['Relation Name'] ?? '').startsWith('events'));
    const rowsRead = scans.reduce((sum, node) => sum + (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0)) * Number(node['Actual Loops']), 0);
    expect(scans.length).toBeGreaterThan(0);
    expect(rowsRead).toBeLessThan(10);
  });
});
