import { createTestDatabase, type TestDatabase } from '../test/helpers/database';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.destroy());

describe('createDatabase', () => {
  it("keeps bound values (messages, emails, key hashes) out of a failed query's error, which the logs print", async () => {
    const failed = await testDb.db
      .raw('SELECT ?::text AS email, 1 / 0 AS broken', ['jo.rivera@example.com'])
      .then(() => undefined)
      .catch((error: Error) => error);
    expect(failed?.message).toBe('SELECT $1::text AS email, 1 / 0 AS broken - division by zero');
  });
});
