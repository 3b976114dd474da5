import type { Knex } from 'knex';
import type { Workspace } from '../../db/repositories/workspaces';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';

/** Short, so that a lock held by the test outlasts it while PostgreSQL's own statement timeout (5 s) does not fire. */
const DEADLINE_MS = 1_000;

let testDb: TestDatabase;
let subject: TestApp;
let shop: Workspace;
let key: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db, { storageDeadlineMs: DEADLINE_MS });
  shop = await subject.repos.workspaces.create('Locked shop');
  key = (await subject.repos.apiKeys.create(shop.id, 'backend')).key;
  await subject.repos.conversionRules.put(shop.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  // The key is looked up once, so that the requests below wait only on storing their events.
  expect((await send({ type: 'track', event: 'landing_viewed', messageId: 'warm-up', anonymousId: 'anon-warm-up' })).statusCode).toBe(200);
});
afterAll(async () => {
  await subject.app.close();
  await testDb.destroy();
});

const purchase = (messageId: string) => ({ type: 'track', event: 'purchase', messageId, anonymousId: `anon-${messageId}`, properties: { order_id: `order-${messageId}`, total: 12 } });
const send = (message: Record<string, unknown>) => subject.app.inject({ method: 'POST', url: '/v1/track', headers: { authorization: `Bearer ${key}` }, payload: message });

/** Holds every write to `events` until the returned function is called: a database that stopped answering ingest. */
async function lockEvents(): Promise<() => Promise<void>> {
  const trx: Knex.Transaction = await testDb.db.transaction();
  await trx.raw('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
  return async () => {
    await trx.commit();
  };
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  const giveUpAt = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error('condition not met within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A statement of ingest's is blocked by the test's lock. */
async function waitingOnTheLock(): Promise<boolean> {
  const { rows } = await testDb.db.raw<{ rows: { n: number }[] }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
  return (rows[0]?.n ?? 0) > 0;
}

const stored = (messageIds: string[]) => testDb.db('events').where({ workspace_id: shop.id }).whereIn('message_id', messageIds).pluck('message_id');

describe('the storage deadline (INGEST_STORAGE_DEADLINE_MS)', () => {
  it('answers 503 with Retry-After when the commit is late; the commit still lands, its conversion is woken, and the retry stores nothing twice', async () => {
    const unlock = await lockEvents();
    const answer = await send(purchase('late-1'));
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({ error: 'storage_unavailable', message: 'the database is unavailable; retry in 5 seconds' });

    const woken = subject.starts.next();
    await unlock();
    const [conversion] = await woken;
    expect(conversion).toMatchObject({ workspaceId: shop.id, tiktokEvent: 'CompletePayment', eventId: 'order-late-1' });
    expect(await stored(['late-1'])).toEqual(['late-1']);

    const retried = await send(purchase('late-1'));
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ success: true, duplicates: { messages: 1, conversions: 0 } });
    expect(await testDb.db('conversions').where({ workspace_id: shop.id, event_id: 'order-late-1' }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it('drops a request still waiting for its turn at the deadline: nothing of it is ever stored', async () => {
    const unlock = await lockEvents();
    const first = send(purchase('line-1'));
    await until(waitingOnTheLock);
    // Small groups of a workspace go one transaction at a time (group-commit.ts): with line-1's in flight, these wait in line.
    const answers = await Promise.all([first, ...['line-2', 'line-3'].map((id) => send(purchase(id)))]);
    expect(answers.map((a) => a.statusCode)).toEqual([503, 503, 503]);
    await unlock();

    await until(async () => (await stored(['line-1'])).length === 1);
    // Requests are committed in order of arrival: once a later one is, a dropped one would have been too.
    expect((await send(purchase('line-4'))).statusCode).toBe(200);
    expect(await stored(['line-1', 'line-2', 'line-3'])).toEqual(['line-1']);
  });
});
