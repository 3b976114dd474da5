import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Knex } from 'knex';
import type { MetricValue } from 'prom-client';
import { migrateToLatest, migrateUpTo } from '../db/knex';
import { addDays, createEventDayRepository, dayOf, partitionOf } from '../db/repositories/event-days';
import type { Workspace } from '../db/repositories/workspaces';
import { createSignalboxWorker } from '../worker/create-worker';
import { createWorkerMetrics } from '../worker/metrics';
import { ensureRetentionSchedule } from '../temporal/schedules';
import { runSignalbox } from './helpers/cli';
import { closeAll } from './helpers/close-all';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { temporalTestAddress, TestPipeline, workflowBundle } from './helpers/pipeline';

/**
 * `signalbox retention run` end to end: the command triggers the signalbox-retention schedule of a namespace of this
 * file's own, a worker runs the workflow, and the command prints what the run did; the run's log line and the worker's
 * metrics say the same. The store was upgraded from the layout before days, so `events_before_days` is there.
 */
const namespace = `signalbox-retention-${randomBytes(4).toString('hex')}`;
const metrics = createWorkerMetrics();
const logged: Record<string, unknown>[] = [];

let testDb: TestDatabase;
let db: Knex;
let pipeline: TestPipeline;
let connection: Connection;
let worker: { worker: Worker; running: Promise<void>; connection: NativeConnection } | undefined;

/** A store of the release before days holding two events received 40 days ago, one with a conversion, then upgraded. */
async function upgradedStore(): Promise<TestDatabase> {
  const store = await createTestDatabase({ migrated: false });
  await migrateUpTo(store.db, '20261130100000_events_by_day');
  await store.db('workspaces').insert({ id: 'ws_before_days', name: 'Before days' });
  const event = (messageId: string) => ({
    workspace_id: 'ws_before_days', message_id: messageId, anonymous_id: 'visitor-before', type: 'page', occurred_at: daysAgo(40), received_at: daysAgo(40), message: { type: 'page' },
  });
  const [converted] = await store.db('events').insert([event('before-1'), event('before-2')]).returning('id');
  await store.db('conversions').insert({
    workspace_id: 'ws_before_days', event_row_id: converted.id, message_id: 'before-1', source_event: 'purchase', tiktok_event: 'CompletePayment', event_id: 'o-1', event_time: daysAgo(40), workflow_id: 'w',
  });
  await migrateToLatest(store.db);
  // Delivered, and without its event's IDs, as a conversion an API of the previous build stored after the back-fill passed.
  await store.db('conversions').where({ workspace_id: 'ws_before_days' }).update({ status: 'delivered', user_id: null, anonymous_id: null });
  return store;
}

beforeAll(async () => {
  testDb = await upgradedStore();
  db = testDb.db;
  pipeline = await TestPipeline.start({ database: testDb, worker: false, metrics, log: { info: (fields, msg) => logged.push({ ...fields, msg }) } });
  connection = await Connection.connect({ address: temporalTestAddress() });
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  await ensureRetentionSchedule(new Client({ connection, namespace }), pipeline.taskQueue);
  const workerConnection = await NativeConnection.connect({ address: temporalTestAddress() });
  const created = await createSignalboxWorker({
    connection: workerConnection, namespace, taskQueue: pipeline.taskQueue, workflowBundle: await workflowBundle(), shutdownGraceTime: '1 second', deps: pipeline.deps,
  });
  worker = { worker: created, running: created.run(), connection: workerConnection };
});
afterAll(() =>
  closeAll(
    async () => {
      worker?.worker.shutdown();
      await worker?.running;
      await worker?.connection.close();
    },
    // Deleting the namespace deletes its schedule: nothing is left to start workflows on the shared server.
    () => connection?.operatorService.deleteNamespace({ namespace }),
    () => connection?.close(),
    () => pipeline?.close(),
  ),
);

const signalbox = (args: string[]) =>
  runSignalbox(args, { env: { TEMPORAL_ADDRESS: temporalTestAddress(), TEMPORAL_NAMESPACE: namespace }, cwd: __dirname });

/** Events as ingest stores them, then moved to the partition of an earlier day (with their conversions' day). */
async function receivedOn(ws: Workspace, day: string, messages: { messageId: string }[]): Promise<void> {
  await pipeline.ingest(ws, messages, { start: false });
  const ids = messages.map((m) => m.messageId);
  await createEventDayRepository(db).ensure(day, day);
  await db('events').where({ workspace_id: ws.id }).whereIn('message_id', ids).update({ received_on: new Date(day), received_at: new Date(`${day}T12:00:00Z`) });
  await db('conversions').where({ workspace_id: ws.id }).whereIn('message_id', ids).update({ event_received_on: new Date(day) });
}

/** `work` while another transaction holds `partition` (as a long read would): dropping it waits past its lock timeout. */
async function whileHolding<T>(partition: string, work: () => Promise<T>): Promise<T> {
  const holder = await db.transaction();
  try {
    await holder.raw('SET LOCAL idle_in_transaction_session_timeout = 0');
    await holder.raw('LOCK TABLE ?? IN ACCESS SHARE MODE', [partition]);
    return await work();
  } finally {
    await holder.rollback();
  }
}

/** Each sample of a metric, by its labels. */
async function samples(name: string): Promise<{ labels: object; value: number }[]> {
  const values = ((await metrics.registry.getSingleMetric(name)?.get())?.values ?? []) as MetricValue<string>[];
  return values.map(({ labels, value }) => ({ labels, value }));
}

describe('signalbox retention run', () => {
  it('runs retention through its schedule now, and the command, the log line and the metrics tell what it dropped, kept and removed', async () => {
    const today = dayOf(new Date());
    const [dropped, locked, pending, recent] = [addDays(today, -41), addDays(today, -40), addDays(today, -39), addDays(today, -9)];
    const page = (id: string, days: number) => ({ ...landing(`anon-${id}`, ttclid(), daysAgo(days)), messageId: id });
    const purchase = (id: string) => ({ ...track('purchase', { anonymousId: `anon-${id}` }, { order_id: `order-${id}`, total: 10 }), messageId: id });

    // Every day past the longest period (30 days): one of events, one empty but held by a transaction, one holding a
    // pending conversion's event.
    const monthly = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await receivedOn(monthly, dropped, [page('dropped-page', 41)]);
    await createEventDayRepository(db).ensure(locked, locked);
    await receivedOn(monthly, pending, [purchase('pending-purchase')]);
    // A workspace keeping a week: two pages deleted row by row, a delivered purchase's event stripped, and that
    // conversion, created 29 days ago, deleted past its 28 days.
    const weekly = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { eventRetentionDays: 7, conversionRetentionDays: 28 } });
    await receivedOn(weekly, recent, [page('weekly-page-1', 9), page('weekly-page-2', 9), purchase('weekly-purchase')]);
    await db('conversions').where({ workspace_id: weekly.id }).update({ status: 'delivered', created_at: daysAgo(29) });
    // The last partition ahead is missing: the run creates it.
    const lastAhead = addDays(today, 7);
    await db.raw('DROP TABLE IF EXISTS ??', [partitionOf(lastAhead)]);

    const started = Date.now() / 1000;
    const first = await whileHolding(partitionOf(locked), () => signalbox(['retention', 'run']));

    expect(first).toEqual({
      code: 0,
      stdout: expect.any(String),
      stderr: expect.stringMatching(/^Started signalbox-retention-\S+; waiting for it to finish…$/),
    });
    expect(first.stdout.split('\n')).toEqual([
      expect.stringMatching(/^Retention run signalbox-retention-\S+: complete$/),
      `Days dropped: 1 (${dropped})`,
      `Day kept: ${locked}: ingest held the events table past the lock timeout; the next run tries again`,
      `Day kept: ${pending}: a pending conversion's event is in it; it goes once the conversion is settled`,
      `Days retained: from ${recent}, inside the longest retention period (30 days)`,
      'Events stored before days (events_before_days): dropped',
      `Partitions created ahead: 1 (${lastAhead})`,
      'Events deleted: 2, stripped of personal data: 1; conversions deleted: 1',
    ]);
    expect(logged.filter(({ msg }) => msg === 'retention run finished')).toEqual([
      {
        msg: 'retention run finished',
        daysDropped: [dropped],
        daysKept: [
          { day: locked, reason: 'lock_timeout' },
          { day: pending, reason: 'pending_conversion' },
        ],
        partitionsCreated: [lastAhead],
        retainedSince: recent,
        longestRetentionDays: 30,
        beforeDays: 'dropped',
        eventsDeleted: 2,
        eventsStripped: 1,
        conversionsDeleted: 1,
        complete: true,
      },
    ]);
    expect(await samples('signalbox_retention_days_dropped_total')).toEqual([{ labels: {}, value: 1 }]);
    expect(await samples('signalbox_retention_days_kept_total')).toEqual([
      { labels: { reason: 'lock_timeout' }, value: 1 },
      { labels: { reason: 'pending_conversion' }, value: 1 },
    ]);
    expect(await samples('signalbox_event_partitions_created_total')).toEqual([{ labels: {}, value: 1 }]);
    expect(await samples('signalbox_retention_rows_removed_total')).toEqual([
      { labels: { table: 'events', removal: 'deleted' }, value: 2 },
      { labels: { table: 'events', removal: 'stripped' }, value: 1 },
      { labels: { table: 'conversions', removal: 'deleted' }, value: 1 },
    ]);
    const [lastSuccess] = await samples('signalbox_retention_last_success_timestamp_seconds');
    expect(lastSuccess?.value).toBeGreaterThanOrEqual(started);

    // The conversion of the events stored before days took its event's IDs before they went, so erasure still finds it.
    expect(await db('conversions').where({ workspace_id: 'ws_before_days' }).select('anonymous_id')).toEqual([{ anonymous_id: 'visitor-before' }]);
    expect(await db.raw("SELECT to_regclass('events_before_days') AS table")).toMatchObject({ rows: [{ table: null }] });

    // The day kept after the lock timeout goes on the next run; the pending conversion's stays.
    const second = await signalbox(['retention', 'run']);
    expect(second.stdout.split('\n').slice(1, 4)).toEqual([
      `Days dropped: 1 (${locked})`,
      `Day kept: ${pending}: a pending conversion's event is in it; it goes once the conversion is settled`,
      `Days retained: from ${recent}, inside the longest retention period (30 days)`,
    ]);
    expect(await samples('signalbox_retention_days_dropped_total')).toEqual([{ labels: {}, value: 2 }]);
    expect(await samples('signalbox_retention_days_kept_total')).toEqual([
      { labels: { reason: 'lock_timeout' }, value: 1 },
      { labels: { reason: 'pending_conversion' }, value: 2 },
    ]);
  });

  it('says to run `signalbox temporal setup` where the schedule is missing', async () => {
    await new Client({ connection, namespace }).schedule.getHandle('signalbox-retention').delete();
    const run = await signalbox(['retention', 'run']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(`the signalbox-retention schedule is not on namespace ${namespace}: run \`signalbox temporal setup\``),
    });
  });
});
