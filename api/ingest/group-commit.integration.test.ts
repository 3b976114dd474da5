import { createRepositories } from '../../db/repositories';
import type { Workspace } from '../../db/repositories/workspaces';
import { createSecretBox } from '../../db/secret-box';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { createGroupCommit } from './group-commit';
import { createBatchStore, receive, type BatchStore } from './record-batch';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../../test/helpers/test-app';

let testDb: TestDatabase;
let subject: TestApp;
let shop: Workspace;
let key: string;
/** How many transactions the store ran: the real store, counted. */
let transactions = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const store = createBatchStore(createRepositories(testDb.db, createSecretBox(TEST_SECRET_KEY)));
  const counted: BatchStore = async (workspace, received) => {
    transactions += 1;
    return store(workspace, received);
  };
  subject = buildTestApp(testDb.db, { recordBatch: createGroupCommit(counted, receive) });
  shop = await subject.repos.workspaces.create('Busy shop');
  key = (await subject.repos.apiKeys.create(shop.id, 'backend')).key;
  await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
});
afterAll(async () => {
  await subject.app.close();
  await testDb.destroy();
});

const view = (messageId: string, event = 'product_viewed') => ({ type: 'track', event, messageId, anonymousId: `anon-${messageId}`, properties: { order_id: `order-${messageId}`, total: 5 } });
const send = (message: Record<string, unknown>) =>
  subject.app.inject({ method: 'POST', url: '/v1/track', headers: { authorization: `Bearer ${key}` }, payload: message });

describe('group commit', () => {
  it('commits concurrent requests of a workspace together, answers each after the commit, and counts a message sent twice once', async () => {
    transactions = 0;
    const messages = Array.from({ length: 30 }, (_, i) => view(`gc-${i}`, i === 0 ? 'purchase' : 'product_viewed'));
    const answers = await Promise.all([...messages, messages[0] as Record<string, unknown>].map(send));

    expect(answers.map((a) => a.statusCode)).toEqual(Array(31).fill(200));
    const stored = await testDb.db('events').where({ workspace_id: shop.id }).whereLike('message_id', 'gc-%').pluck('message_id');
    expect(stored.sort()).toEqual(messages.map((m) => m.messageId).sort());
    expect(transactions).toBeLessThan(messages.length / 3);
    // The purchase sent twice made one conversion, handed to the workflow starter once.
    const starts = subject.starts.calls.flat().filter((c) => c.tiktokEvent === 'CompletePayment');
    expect(starts).toHaveLength(1);
  });

  it('fails only the request PostgreSQL refuses when it shared a transaction with others', async () => {
    await testDb.db.raw("ALTER TABLE events ADD CONSTRAINT refuses_one_name CHECK (event_name IS DISTINCT FROM 'refused_by_storage')");
    try {
      const messages = Array.from({ length: 12 }, (_, i) => view(`mixed-${i}`, i === 5 ? 'refused_by_storage' : 'product_viewed'));
      const answers = await Promise.all(messages.map(send));

      expect(answers.map((a) => a.statusCode)).toEqual(messages.map((_, i) => (i === 5 ? 503 : 200)));
      const stored = await testDb.db('events').where({ workspace_id: shop.id }).whereLike('message_id', 'mixed-%').pluck('message_id');
      expect(stored.sort()).toEqual(messages.filter((_, i) => i !== 5).map((m) => m.messageId).sort());
    } finally {
      await testDb.db.raw('ALTER TABLE events DROP CONSTRAINT refuses_one_name');
    }
  });
});
