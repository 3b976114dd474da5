import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { addDays, createEventDayRepository, dayOf } from './event-days';
import { createEventCountRepository, ROLLUP_GRACE_MS } from './event-counts';

let testDb: TestDatabase;
const WS = 'ws_counts';
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
let serial = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.destroy();
});

async function received(at: Date, count: number): Promise<void> {
  await createEventDayRepository(testDb.db).ensure(dayOf(at), dayOf(at));
  const rows = Array.from({ length: count }, () => ({
    workspace_id: WS, message_id: `m-${(serial += 1)}`, type: 'track', event_name: 'viewed', occurred_at: at, received_at: at,
    received_on: testDb.db.raw('?::date', [dayOf(at)]), message: {},
  }));
  await testDb.db('events').insert(rows);
}

describe('event counts', () => {
  it('rolls up the hour in progress run after run, each event once, and reads live only what came after', async () => {
    const counts = createEventCountRepository(testDb.db);
    // An hour two days back, so every time below is past whatever the clock says.
    const hour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 48 * HOUR_MS);
    const at = (minutes: number) => new Date(hour.getTime() + minutes * MINUTE_MS);
    const range = { from: new Date(`${addDays(dayOf(hour), -1)}T00:00:00Z`), to: new Date(`${addDays(dayOf(hour), 2)}T00:00:00Z`), timeZone: 'UTC' };
    const total = async () => (await counts.perDay(WS, range)).reduce((sum, c) => sum + c.events, 0);
    const rolledUp = async () => Number((await testDb.db('event_counts_hourly').where({ workspace_id: WS }).sum<{ sum: string }[]>({ sum: 'events' }))[0]?.sum ?? 0);

    await received(at(10), 2);
    await counts.rollUp(new Date(at(20).getTime() + ROLLUP_GRACE_MS));
    expect(await counts.rolledThrough()).toEqual(at(20));
    expect(await rolledUp()).toBe(2);

    await received(at(30), 3);
    expect(await total()).toBe(5);

    await counts.rollUp(new Date(at(40).getTime() + ROLLUP_GRACE_MS));
    await counts.rollUp(new Date(at(40).getTime() + ROLLUP_GRACE_MS));
    expect(await rolledUp()).toBe(5);
    expect(await testDb.db('event_counts_hourly').where({ workspace_id: WS }).pluck('hour')).toEqual([hour]);

    await received(at(50), 1);
    await received(at(70), 4);
    expect(await total()).toBe(10);
    await counts.rollUp(new Date(at(75).getTime() + ROLLUP_GRACE_MS));
    expect(await rolledUp()).toBe(10);
    expect(await total()).toBe(10);
  });
});
