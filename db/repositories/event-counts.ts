import type { Knex } from 'knex';
import { RECEIVED_DAYS, receivedDays } from './event-days';

const PROGRESS = 'event_counts_hourly';
/** The rollup stops this long before its run, so that no ingest transaction still running can add to what it counted. */
export const ROLLUP_GRACE_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;
/** One statement rolls up at most this many hours, so a run after a long pause stays in short steps. */
const HOURS_PER_STEP = 24 * 7;

export interface EventCount {
  /** `YYYY-MM-DD` in the query's time zone. */
  day: string;
  type: string;
  /** '' when the message has no name (identify, group, alias, unnamed page). */
  eventName: string;
  events: number;
  /** The newest event of the group, as a sample. */
  lastEventId: string;
}

const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Events per workspace, UTC hour, type and name. The rollup is maintained by a periodic job, never by ingest, up to
 * ROLLUP_GRACE_MS before its run: the hour in progress is added to run after run, so reads count live from `events`
 * only what came after (minutes, whatever the rate). Figures are exact whatever the job's lag (only their speed
 * depends on it). Days in zones with a :30 or :45 offset are cut at the UTC hour.
 */
export function createEventCountRepository(db: Knex) {
  async function rolledThrough(executor: Knex): Promise<Date | undefined> {
    const row = await executor('rollup_progress').where({ name: PROGRESS }).first('rolled_through');
    return row?.rolled_through;
  }

  return {
    rolledThrough: (executor: Knex = db) => rolledThrough(executor),

    /** Rolls up the events received since the last run, up to ROLLUP_GRACE_MS before `now`; returns how many hours it covered, begun or whole. One runner at a time. */
    async rollUp(now: Date, executor: Knex = db): Promise<number> {
      const end = new Date(now.getTime() - ROLLUP_GRACE_MS);
      let covered = 0;
      for (;;) {
        const step = await executor.transaction(async (trx) => {
          const { rows } = await trx.raw<{ rows: { locked: boolean }[] }>("SELECT pg_try_advisory_xact_lock(hashtext('signalbox:event_counts_hourly')) AS locked");
          if (!rows[0]?.locked) return 0;
          let start = await rolledThrough(trx);
          if (start === undefined) {
            const first = await trx('events').min<{ min: Date | null }[]>({ min: 'received_at' });
            start = first[0]?.min ? floorHour(first[0].min) : end;
          }
          if (start >= end) {
            if ((await rolledThrough(trx)) === undefined) await trx('rollup_progress').insert({ name: PROGRESS, rolled_through: end });
            return 0;
          }
          const stepEnd = new Date(Math.min(end.getTime(), start.getTime() + HOURS_PER_STEP * HOUR_MS));
          await trx.raw(
            `INSERT INTO event_counts_hourly (workspace_id, hour, type, event_name, events, last_event_id)
             SELECT workspace_id, date_bin('1 hour', received_at, '2000-01-01T00:00:00Z'), type, coalesce(event_name, ''), count(*), max(id)
             FROM events WHERE received_at >= ? AND received_at < ?
             GROUP BY 1, 2, 3, 4
             ON CONFLICT (workspace_id, hour, type, event_name) DO UPDATE
             SET events = event_counts_hourly.events + excluded.events, last_event_id = greatest(event_counts_hourly.last_event_id, excluded.last_event_id)`,
            [start, stepEnd],
          );
          await trx('rollup_progress').insert({ name: PROGRESS, rolled_through: stepEnd }).onConflict('name').merge();
          return Math.ceil((stepEnd.getTime() - start.getTime()) / HOUR_MS);
        });
        if (step === 0) return covered;
        covered += step;
      }
    },

    /** When the workspace's newest event was received; undefined before the first. */
    async lastReceivedAt(workspaceId: string, executor: Knex = db): Promise<Date | undefined> {
      const row = await executor('events').where({ workspace_id: workspaceId }).orderBy('received_at', 'desc').first('received_at');
      return row?.received_at;
    },

    /** Events received in [from, to), per day of `timeZone`, type and name. */
    async perDay(workspaceId: string, range: { from: Date; to: Date; timeZone: string }, executor: Knex = db): Promise<EventCount[]> {
      const through = (await rolledThrough(executor)) ?? range.from;
      const liveFrom = new Date(Math.max(range.from.getTime(), Math.min(through.getTime(), range.to.getTime())));
      const { rows } = await executor.raw<{ rows: { day: string; type: string; event_name: string; events: string; last_event_id: string }[] }>(
        `WITH counted AS (
           SELECT hour AS at, type, event_name, events, last_event_id FROM event_counts_hourly
           WHERE workspace_id = ? AND hour > ?::timestamptz - interval '1 hour' AND hour < ? AND hour < ?
           UNION ALL
           SELECT received_at, type, coalesce(event_name, ''), 1, id FROM events
           WHERE workspace_id = ? AND received_at >= ? AND received_at < ? AND ${RECEIVED_DAYS}
         )
         SELECT to_char(day, 'YYYY-MM-DD') AS day, type, event_name, events::text, last_event_id::text
         FROM (SELECT (at AT TIME ZONE ?)::date AS day, type, event_name, sum(events) AS events, max(last_event_id) AS last_event_id
               FROM counted GROUP BY 1, 2, 3) per_day
         ORDER BY 1, 2, 3`,
        [workspaceId, range.from, range.to, through, workspaceId, liveFrom, range.to, ...receivedDays(liveFrom, range.to), range.timeZone],
      );
      return rows.map((r) => ({ day: r.day, type: r.type, eventName: r.event_name, events: Number(r.events), lastEventId: r.last_event_id }));
    },
  };
}

export type EventCountRepository = ReturnType<typeof createEventCountRepository>;
