/** The stores the day-size benchmarks measure ingest's statement on (run.ts: its rate; instructions.ts: its instructions). */
import type { Knex } from 'knex';
import { toNewEvent, type Received } from '../../api/ingest/record-batch';
import { migrateToLatest, migrateUpTo } from '../../db/knex';
import { addDays, createEventDayRepository, dayOf, type Day } from '../../db/repositories/event-days';
import type { NewEvent } from '../../db/repositories/ingest-writes';
import type { TrackedMessage } from '../../domain/message';
import { benchEvents, type BenchEvent } from '../ingest/workload';
import { fillDay, scratchDatabase } from '../retention/store';

/** The last migration of the layout before days. */
const PARTITIONS_MIGRATION = '20261130100000_events_by_day';
export const WORKSPACE_ID = 'ws_day_size';
/** Messages in each of ingest's statements. */
export const BATCH = 100;

export interface Case {
  label: string;
  /** `days`, or `upgrade`: each case's rate is compared with the first of its group's. */
  group: string;
  yesterday: number;
  today: number;
  /** Events stored before the upgrade to days, received over the day before: 0 for a store created with days. */
  beforeDays?: number;
}

/** The cases, by group: `days` (a store created with days) and `upgrade` (the day after an upgrade, issue 48). */
export const dayCases = (dayEvents: number): Case[] => [
  { label: 'both days empty', group: 'days', yesterday: 0, today: 0 },
  { label: 'today full, yesterday empty', group: 'days', yesterday: 0, today: dayEvents },
  { label: 'yesterday full, today empty', group: 'days', yesterday: dayEvents, today: 0 },
  { label: 'both days full', group: 'days', yesterday: dayEvents, today: dayEvents },
  { label: 'upgraded the day before, yesterday empty', group: 'upgrade', yesterday: 0, today: 0, beforeDays: dayEvents },
  { label: 'upgraded the day before, yesterday full', group: 'upgrade', yesterday: dayEvents, today: 0, beforeDays: dayEvents },
  { label: 'created with days, both days empty', group: 'upgrade', yesterday: 0, today: 0 },
];

/** One of the benchmark's events as ingest's recorder receives it (at its own time, from a website). */
export const received = (e: BenchEvent): Received => ({ message: e as unknown as TrackedMessage, occurredAt: new Date(e.timestamp), fromAppKey: false });

export function toNewEvents(count: number): NewEvent[] {
  return benchEvents(count).map((e) => toNewEvent(received(e)));
}

export interface Store {
  db: Knex;
  url: string;
  day: Day;
  drop(): Promise<void>;
}

/** A freshly migrated scratch database holding the case's days. */
export async function prepareStore(adminUrl: string, { yesterday, today, beforeDays = 0 }: Case, dropIndexes: readonly string[] = []): Promise<Store> {
  const scratch = await scratchDatabase(adminUrl, 'day_size');
  try {
    const day = dayOf(new Date());
    if (beforeDays > 0) {
      await migrateUpTo(scratch.db, PARTITIONS_MIGRATION);
      await scratch.db('workspaces').insert({ id: WORKSPACE_ID, name: 'Day size' });
      await fillDay(scratch.db, WORKSPACE_ID, addDays(day, -2), beforeDays, { withDay: false, timesOn: addDays(day, -1) });
    }
    await migrateToLatest(scratch.db);
    for (const index of dropIndexes) await scratch.db.raw('DROP INDEX ??', [index]);
    if (beforeDays === 0) await scratch.db('workspaces').insert({ id: WORKSPACE_ID, name: 'Day size' });
    await createEventDayRepository(scratch.db).ensure(addDays(day, -1), day);
    if (yesterday > 0) await fillDay(scratch.db, WORKSPACE_ID, addDays(day, -1), yesterday, { withDay: true });
    if (today > 0) await fillDay(scratch.db, WORKSPACE_ID, day, today, { withDay: true, timesOn: addDays(day, -1) });
    await scratch.db.raw('VACUUM ANALYZE events');
    return { db: scratch.db, url: scratch.url, day, drop: scratch.drop };
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

