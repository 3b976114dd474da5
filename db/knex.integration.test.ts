import type { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { createDatabase } from './knex';
import { createAdStatsRepository } from './repositories/ad-stats';
import { createWorkspaceRepository } from './repositories/workspaces';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.destroy());

/** The deadlines the ingest API and the worker run with by default (config/env.ts). */
const TIMEOUTS = { connectMs: 3_000, acquireMs: 3_000, statementMs: 5_000, idleInTransactionMs: 10_000 };

describe('createDatabase', () => {
  it("keeps bound values (messages, emails, key hashes) out of a failed query's error, which the logs print", async () => {
    const failed = await testDb.db
      .raw('SELECT ?::text AS email, 1 / 0 AS broken', ['jo.rivera@example.com'])
      .then(() => undefined)
      .catch((error: Error) => error);
    expect(failed?.message).toBe('SELECT $1::text AS email, 1 / 0 AS broken - division by zero');
  });

  it('with deadlines, stores a statistics page through a named statement on a lent connection, and a failing one rejects', async () => {
    const db = createDatabase({ url: testDb.url, timeouts: TIMEOUTS });
    try {
      const workspace = await createWorkspaceRepository(db).create('Deadline shop');
      const adStats = createAdStatsRepository(db);
      const day = {
        level: 'campaign' as const, entityId: '1800000000000000001', statDate: '2026-11-01', advertiserId: '7391846250173946281',
        campaignId: '1800000000000000001', adgroupId: null, spend: '12.5', impressions: 1000, clicks: 20, conversions: 2, conversionValue: '99.9',
      };
      expect(await adStats.storePage(workspace.id, [day], [])).toBe(1);
      expect(await adStats.storePage(workspace.id, [{ ...day, spend: '13.25' }], [])).toBe(1);
      expect(await db('ad_stats_daily').where({ workspace_id: workspace.id }).select('spend', 'clicks')).toEqual([{ spend: 13.25, clicks: '20' }]);

      const connection = (await db.client.acquireConnection()) as Client;
      try {
        await expect(connection.query({ name: 'divide-by-zero', text: 'SELECT 1 / $1::int AS broken', values: [0] })).rejects.toThrow('division by zero');
        expect((await connection.query({ name: 'divide-by-zero', text: 'SELECT 1 / $1::int AS broken', values: [4] })).rows).toEqual([{ broken: 0 }]);
      } finally {
        await db.client.releaseConnection(connection);
      }
    } finally {
      await db.destroy();
    }
  });
});
