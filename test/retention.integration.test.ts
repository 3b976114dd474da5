import type { Knex } from 'knex';
import { fullMessage } from '../db/event-message';
import { addDays, createEventDayRepository, dayOf } from '../db/repositories/event-days';
import type { Workspace } from '../db/repositories/workspaces';
import { ensureRetentionSchedule, RETENTION_SCHEDULE_ID } from '../temporal/schedules';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

let pipeline: TestPipeline;
let db: Knex;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
  db = pipeline.database.db;
});
afterAll(() => pipeline.close());

const EMAIL = 'retained.person@example.com';

/** Events as ingest stores them, then aged: `received_at` is what retention measures. */
/** Events as ingest stores them, then moved `days` back: their time, and the day's partition it falls in. */
async function receivedDaysAgo(ws: Workspace, days: number, messages: unknown[]): Promise<void> {
  await pipeline.ingest(ws, messages, { start: false });
  const ids = messages.map((m) => (m as { messageId: string }).messageId);
  const { rows } = await db.raw<{ rows: { at: Date; day: string }[] }>(`SELECT now() - interval '${days} days' AS at, ((now() - interval '${days} days') AT TIME ZONE 'UTC')::date::text AS day`);
  const { at, day } = rows[0] as { at: Date; day: string };
  await createEventDayRepository(db).ensure(day, day);
  await db('events').where({ workspace_id: ws.id }).whereIn('message_id', ids).update({ received_at: at, received_on: new Date(day) });
  await db('conversions').where({ workspace_id: ws.id }).whereIn('message_id', ids).update({ event_received_on: new Date(day) });
}

/** Events as ingest stores them, then moved to the partition of an earlier day (with their conversions' day). */
async function receivedOn(ws: Workspace, day: string, messages: unknown[]): Promise<void> {
  await pipeline.ingest(ws, messages, { start: false });
  const ids = messages.map((m) => (m as { messageId: string }).messageId);
  await db('events').where({ workspace_id: ws.id }).whereIn('message_id', ids).update({ received_on: new Date(day), received_at: new Date(`${day}T12:00:00Z`) });
  await db('conversions').where({ workspace_id: ws.id }).whereIn('message_id', ids).update({ event_received_on: new Date(day) });
}

async function eventsOf(ws: Workspace) {
  const rows = await db('events').where({ workspace_id: ws.id }).orderBy('message_id');
  return rows.map((row) => ({ messageId: row.message_id, stripped: row.stripped_at !== null, holdsEmail: JSON.stringify(row.message).includes(EMAIL) }));
}

describe('event retention', () => {
  it("deletes each workspace's raw events past its period in bounded batches, strips those a conversion refers to, and keeps a pending conversion's event", async () => {
    const weekly = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { eventRetentionDays: 7 } });
    const monthly = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const traits = { context: { traits: { email: EMAIL }, ip: '203.0.113.5' } };
    const page = (id: string) => ({ ...landing(`anon-${id}`, ttclid(), daysAgo(9)), messageId: id, ...traits });
    const purchase = (id: string) => ({ ...track('purchase', { anonymousId: `anon-${id}` }, { order_id: `order-${id}`, total: 10 }), messageId: id, ...traits });

    await receivedDaysAgo(weekly, 9, [page('w-old-page-1'), page('w-old-page-2'), page('w-old-page-3'), purchase('w-old-delivered'), purchase('w-old-pending')]);
    await receivedDaysAgo(weekly, 2, [page('w-recent-page')]);
    await receivedDaysAgo(monthly, 9, [page('m-old-page'), purchase('m-old-purchase')]);
    await db('conversions').where({ workspace_id: weekly.id, message_id: 'w-old-delivered' }).update({ status: 'delivered' });

    // Two events (or conversions) per batch, one batch per activity run: the workflow comes back for each batch.
    const report = await pipeline.client.workflow.execute('retentionWorkflow', {
      taskQueue: pipeline.taskQueue,
      workflowId: `retention-${weekly.id}`,
      args: [{ batchSize: 2, maxBatches: 1 }],
    });

    expect(report).toMatchObject({ daysDropped: [], daysKept: [], deleted: 3, stripped: 1, conversionsDeleted: 0, complete: true });
    expect(await eventsOf(weekly)).toEqual([
      { messageId: 'w-old-delivered', stripped: true, holdsEmail: false },
      { messageId: 'w-old-pending', stripped: false, holdsEmail: true },
      { messageId: 'w-recent-page', stripped: false, holdsEmail: true },
    ]);
    expect(await eventsOf(monthly)).toEqual([
      { messageId: 'm-old-page', stripped: false, holdsEmail: true },
      { messageId: 'm-old-purchase', stripped: false, holdsEmail: true },
    ]);
    const stripped = await db('events').where({ workspace_id: weekly.id, message_id: 'w-old-delivered' }).first();
    expect(stripped?.message).toEqual({ timestamp: expect.any(String) });
    expect(stripped && fullMessage(stripped)).toEqual({ type: 'track', event: 'purchase', messageId: 'w-old-delivered', timestamp: expect.any(String) });
    expect(await db('conversions').where({ workspace_id: weekly.id }).count<{ count: string }[]>('* as count')).toEqual([{ count: '2' }]);
  });

  it("drops a day past every workspace's period whole, and keeps a day holding a pending conversion's event until it is final", async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const days = createEventDayRepository(db);
    const today = dayOf(new Date());
    const [older, old] = [addDays(today, -41), addDays(today, -40)];
    await days.ensure(older, old);
    const page = (id: string) => ({ ...landing(`anon-${id}`, ttclid(), daysAgo(41)), messageId: id });
    const purchase = (id: string) => ({ ...track('purchase', { anonymousId: `anon-${id}` }, { order_id: `order-${id}`, total: 10 }), messageId: id });
    await receivedOn(ws, older, [page('older-page'), purchase('older-pending')]);
    await receivedOn(ws, old, [page('old-page'), purchase('old-delivered')]);
    await db('conversions').where({ workspace_id: ws.id, message_id: 'old-delivered' }).update({ status: 'delivered' });
    const retain = (run: string) =>
      pipeline.client.workflow.execute('retentionWorkflow', { taskQueue: pipeline.taskQueue, workflowId: `retention-days-${run}-${ws.id}`, args: [{}] });

    // The day kept whole for its pending conversion still loses its other expired events row by row.
    expect(await retain('first')).toMatchObject({ daysDropped: [old], deleted: 1, complete: true });
    expect(await days.list()).toEqual(expect.arrayContaining([older, today, addDays(today, 7)]));
    expect(await days.list()).not.toContain(old);
    expect((await eventsOf(ws)).map((e) => e.messageId)).toEqual(['older-pending']);

    await db('conversions').where({ workspace_id: ws.id, message_id: 'older-pending' }).update({ status: 'delivered' });
    expect(await retain('second')).toMatchObject({ daysDropped: [older] });
    expect(await eventsOf(ws)).toEqual([]);
    // The conversions stay, and keep who they were for: an erasure finds them without their events.
    expect(await db('conversions').where({ workspace_id: ws.id }).orderBy('message_id').select('message_id', 'anonymous_id')).toEqual([
      { message_id: 'old-delivered', anonymous_id: 'anon-old-delivered' },
      { message_id: 'older-pending', anonymous_id: 'anon-older-pending' },
    ]);
  });

  it("deletes each workspace's settled conversions past its conversion retention period with their timeline, never a pending one", async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { conversionRetentionDays: 28 } });
    const longer = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const purchase = (id: string) => ({ ...track('purchase', { anonymousId: `anon-${id}` }, { order_id: `order-${id}`, total: 10 }), messageId: id });
    await pipeline.ingest(ws, [purchase('old-delivered'), purchase('old-failed'), purchase('old-pending'), purchase('recent-delivered')], { start: false });
    await pipeline.ingest(longer, [purchase('longer-delivered')], { start: false });
    const age = (workspaceId: string, ids: string[], days: number) =>
      db('conversions').where({ workspace_id: workspaceId }).whereIn('message_id', ids).update({ created_at: db.raw(`now() - interval '${days} days'`) });
    await age(ws.id, ['old-delivered', 'old-failed', 'old-pending'], 29);
    await age(longer.id, ['longer-delivered'], 29);
    await db('conversions').whereIn('message_id', ['old-delivered', 'recent-delivered', 'longer-delivered']).update({ status: 'delivered' });
    await db('conversions').where({ message_id: 'old-failed' }).update({ status: 'failed' });
    const timeline = await db('conversions').where({ workspace_id: ws.id, message_id: 'old-delivered' }).first('id');
    await db('conversion_history').insert({ conversion_id: timeline?.id, step: 'outcome' });

    const report = await pipeline.client.workflow.execute('retentionWorkflow', { taskQueue: pipeline.taskQueue, workflowId: `retention-conversions-${ws.id}`, args: [{ batchSize: 1 }] });

    expect(report).toMatchObject({ conversionsDeleted: 2, complete: true });
    expect(await db('conversions').where({ workspace_id: ws.id }).orderBy('message_id').pluck('message_id')).toEqual(['old-pending', 'recent-delivered']);
    expect(await db('conversions').where({ workspace_id: longer.id }).pluck('message_id')).toEqual(['longer-delivered']);
    expect(await db('conversion_history').where({ conversion_id: timeline?.id })).toEqual([]);
  });

  it('runs from an hourly schedule the worker registers once', async () => {
    // A whole stack started by another test file registers it on the same Temporal server.
    await pipeline.client.schedule.getHandle(RETENTION_SCHEDULE_ID).delete().catch(() => undefined);
    try {
      expect(await ensureRetentionSchedule(pipeline.client, pipeline.taskQueue)).toBe('created');
      expect(await ensureRetentionSchedule(pipeline.client, pipeline.taskQueue)).toBe('exists');
      const description = await pipeline.client.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
      expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionWorkflow', taskQueue: pipeline.taskQueue });
      expect(description.spec.intervals).toEqual([{ every: 3_600_000 }]);
    } finally {
      await pipeline.client.schedule.getHandle(RETENTION_SCHEDULE_ID).delete();
    }
  });
});
