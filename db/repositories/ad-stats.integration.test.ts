import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { createAdStatsRepository, type AdEntityInput, type AdStatsRepository, type DailyStatInput } from './ad-stats';

let testDb: TestDatabase;
let adStats: AdStatsRepository;
let workspaceSerial = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  adStats = createAdStatsRepository(testDb.db);
});
afterAll(() => testDb.destroy());

async function workspace(): Promise<string> {
  const id = `ws_stats_${++workspaceSerial}`;
  await testDb.db('workspaces').insert({ id, name: id });
  return id;
}

function day(entityId: string, statDate: string, spend: string | null, overrides: Partial<DailyStatInput> = {}): DailyStatInput {
  return { level: 'ad', entityId, statDate, advertiserId: '77', campaignId: '701', adgroupId: '702', spend, impressions: 100, clicks: 3, conversions: 1, conversionValue: '9.5', ...overrides };
}

function entity(entityId: string, name: string | null, overrides: Partial<AdEntityInput> = {}): AdEntityInput {
  return { level: 'ad', entityId, advertiserId: '77', campaignId: '701', adgroupId: '702', name, status: null, ...overrides };
}

/** Stored rows with money as PostgreSQL prints it, so that exactness is visible. */
async function storedDays(workspaceId: string) {
  const { rows } = await testDb.db.raw<{ rows: Record<string, unknown>[] }>(
    `SELECT entity_id, to_char(stat_date, 'YYYY-MM-DD') AS day, adgroup_id, spend::text AS spend, impressions::int AS impressions, conversion_value::text AS value, pulled_at
     FROM ad_stats_daily WHERE workspace_id = ? ORDER BY entity_id, stat_date`,
    [workspaceId],
  );
  return rows;
}

describe('ad statistics storage', () => {
  it('inserts a page, then on a re-pull overwrites changed figures only and never duplicates a row', async () => {
    const ws = await workspace();
    const page = [day('9001', '2026-02-01', '10.25'), day('9001', '2026-02-02', '0.1'), day('9002', '2026-02-01', '123456789012.123456789')];
    expect(await adStats.storePage(ws, page, [entity('9001', 'Ad one'), entity('9002', 'Ad two')])).toBe(3);
    const first = await storedDays(ws);
    expect(first.map((r) => [r.entity_id, r.day, r.spend])).toEqual([
      ['9001', '2026-02-01', '10.25'],
      ['9001', '2026-02-02', '0.1'],
      ['9002', '2026-02-01', '123456789012.123456789'],
    ]);

    // TikTok corrected one day's spend and nothing else.
    await adStats.storePage(ws, [page[0]!, day('9001', '2026-02-02', '0.15'), page[2]!], []);
    const second = await storedDays(ws);
    expect(second.map((r) => [r.entity_id, r.day, r.spend])).toEqual([
      ['9001', '2026-02-01', '10.25'],
      ['9001', '2026-02-02', '0.15'],
      ['9002', '2026-02-01', '123456789012.123456789'],
    ]);
    expect(second[0]!.pulled_at).toEqual(first[0]!.pulled_at);
    expect(second[2]!.pulled_at).toEqual(first[2]!.pulled_at);
    expect((second[1]!.pulled_at as Date).getTime()).toBeGreaterThan((first[1]!.pulled_at as Date).getTime());
  });

  it('stores a page that is partly new (today added to stored days), and a figure that became null', async () => {
    const ws = await workspace();
    await adStats.storePage(ws, [day('9001', '2026-02-01', '5'), day('9001', '2026-02-02', '6')], []);
    await adStats.storePage(ws, [day('9001', '2026-02-01', '5'), day('9001', '2026-02-02', null), day('9001', '2026-02-03', '7')], []);
    expect((await storedDays(ws)).map((r) => [r.day, r.spend])).toEqual([
      ['2026-02-01', '5'],
      ['2026-02-02', null],
      ['2026-02-03', '7'],
    ]);
  });

  it('keeps the last of repeated keys, and takes rows in any order', async () => {
    const ws = await workspace();
    await adStats.upsertDaily(ws, [day('9002', '2026-02-02', '1'), day('9001', '2026-02-01', '2'), day('9002', '2026-02-02', '3')]);
    expect((await storedDays(ws)).map((r) => [r.entity_id, r.day, r.spend])).toEqual([
      ['9001', '2026-02-01', '2'],
      ['9002', '2026-02-02', '3'],
    ]);
  });

  it('stores text as it is, whatever characters it holds', async () => {
    const ws = await workspace();
    const odd = ['a,b', 'say "hi"', 'back\\slash', 'NULL', '', ' padded ', '{braces}'];
    await adStats.storePage(
      ws,
      odd.map((adgroupId, n) => day(`90${n}`, '2026-02-01', '1', { adgroupId })),
      odd.map((name, n) => entity(`90${n}`, name)),
    );
    expect((await storedDays(ws)).map((r) => r.adgroup_id)).toEqual(odd);
    const names = await testDb.db('ad_entities').where({ workspace_id: ws }).orderBy('entity_id').pluck('name');
    expect(names).toEqual(odd);
  });

  it('updates names and status when they change, keeps them when TikTok sends none, and leaves unchanged entities as they were', async () => {
    const ws = await workspace();
    await adStats.storePage(ws, [], [entity('9001', 'Spring', { status: 'ENABLE' }), entity('9002', 'Summer')]);
    const before = await testDb.db('ad_entities').where({ workspace_id: ws }).orderBy('entity_id');
    await adStats.storePage(ws, [], [entity('9001', null), entity('9002', 'Summer sale')]);
    const after = await testDb.db('ad_entities').where({ workspace_id: ws }).orderBy('entity_id');
    expect(after.map((e) => [e.name, e.status])).toEqual([
      ['Spring', 'ENABLE'],
      ['Summer sale', null],
    ]);
    expect(after[0].updated_at).toEqual(before[0].updated_at);

    await adStats.upsertEntities(ws, [entity('9001', 'Spring', { status: 'DISABLE' })]);
    expect(await testDb.db('ad_entities').where({ workspace_id: ws, entity_id: '9001' }).first()).toMatchObject({ name: 'Spring', status: 'DISABLE' });
  });

  it('falls back to the upsert when a concurrent pull stores the same fresh keys first', async () => {
    const ws = await workspace();
    const concurrent = await testDb.db.transaction();
    try {
      await concurrent('ad_stats_daily').insert({ workspace_id: ws, level: 'ad', entity_id: '9001', stat_date: '2026-02-01', advertiser_id: '77', campaign_id: '701', spend: '1' });
      // The page sees no stored row yet, so it inserts plainly and waits on the uncommitted key.
      const storing = adStats.storePage(ws, [day('9001', '2026-02-01', '2'), day('9001', '2026-02-02', '3')], []);
      await waitUntilBlocked(ws);
      await concurrent.commit();
      await storing;
    } finally {
      if (!concurrent.isCompleted()) await concurrent.rollback();
    }
    expect((await storedDays(ws)).map((r) => [r.day, r.spend])).toEqual([
      ['2026-02-01', '2'],
      ['2026-02-02', '3'],
    ]);
  });

  it('stores nothing of a page PostgreSQL refuses, and goes on storing the next pages', async () => {
    const ws = await workspace();
    await expect(adStats.storePage(ws, [day('9001', '2026-02-01', '1'), day('9002', '2026-02-01', '1', { impressions: 1.5 })], [entity('9001', 'Ad one')])).rejects.toThrow(/bigint/);
    expect(await storedDays(ws)).toEqual([]);
    expect(await testDb.db('ad_entities').where({ workspace_id: ws })).toEqual([]);
    for (let i = 0; i < 12; i++) await adStats.storePage(ws, [day('9001', `2026-02-${String(i + 1).padStart(2, '0')}`, '1')], []);
    expect(await storedDays(ws)).toHaveLength(12);
  });
});

/** Until a session of this database waits on a lock: the page's insert, behind the uncommitted row. */
async function waitUntilBlocked(workspaceId: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { rows } = await testDb.db.raw<{ rows: unknown[] }>(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no store for ${workspaceId} ever waited on the concurrent insert`);
}
