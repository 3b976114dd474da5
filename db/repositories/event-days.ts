import type { Knex } from 'knex';

/** A UTC day as `events` partitions by it: YYYY-MM-DD. */
export type Day = string;

const DAY_MS = 86_400_000;
/** Partitions are created this many days ahead, so that ingest finds one for its day while the worker is down. */
const DAYS_AHEAD = 7;
const PARTITION = /^events_(\d{4})(\d{2})(\d{2})$/;
/** The partition of the events stored before the upgrade to days (migration events_by_day); its `received_on` is '-infinity'. */
export const BEFORE_DAYS = 'events_before_days';

export const dayOf = (at: Date): Day => at.toISOString().slice(0, 10);

/**
 * A condition on `received_on` that keeps to the partitions of `events` holding what was received in [from, to): the
 * UTC days of the range and the events stored before days. Said beside the range on `received_at`, it lets PostgreSQL
 * plan and open only those partitions, not every day of the retention period. Its bindings: receivedDays(from, to).
 */
export const RECEIVED_DAYS = "(received_on = '-infinity' OR received_on BETWEEN ?::date AND ?::date)";
export const receivedDays = (from: Date, to: Date): [Day, Day] => [dayOf(from), dayOf(to)];
export const addDays = (day: Day, days: number): Day => dayOf(new Date(Date.parse(day) + days * DAY_MS));
export const partitionOf = (day: Day) => `events_${day.replaceAll('-', '')}`;
/** A day written into SQL (DDL takes no bind parameters; ingest's statements name their days): only ever a well-formed date. */
export const dayLiteral = (day: Day) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
  return `'${day}'`;
};

/**
 * A `messageId` once per workspace and day (migration events_message_by_hash): an exclusion constraint over a hash
 * index, which costs an insert the same on an empty day as on a full one, where a B-tree on the random `messageId`s
 * gets deeper as the day fills.
 */
const ONE_MESSAGE_A_DAY = 'ALTER TABLE ?? ADD CONSTRAINT ?? EXCLUDE USING hash ((ARRAY[workspace_id, message_id]) WITH =)';

/** A partition being created by another process at the same moment: it is there, or will be. */
const createdConcurrently = (error: unknown) => ['42P07', '23505'].includes((error as { code?: string }).code ?? '');

/**
 * The transaction's `lock_timeout`: the given milliseconds, and at most half the session's statement_timeout, so that a
 * wait for ingest's locks ends as a lock timeout (55P03, which retention keeps the day for), never as a cancelled
 * statement (57014, which would fail the run: with the services' default of 5 s for both, it was one or the other).
 */
const LOCK_TIMEOUT = `SELECT set_config('lock_timeout', (CASE WHEN current_setting('statement_timeout')::interval = '0' THEN ?::int
  ELSE least(?::int, (extract(epoch FROM current_setting('statement_timeout')::interval) * 500)::int) END)::text || 'ms', true)`;

/**
 * The partitions of `events`, one per UTC day of `received_on` (migration events_by_day). Creating and dropping a
 * partition locks the parent table for a moment: both wait at most `lockTimeoutMs` (and half the statement timeout) for
 * ingest's transactions, and fail rather than queue every insert behind them (the next run tries again).
 */
export function createEventDayRepository(db: Knex, { lockTimeoutMs = 5_000 } = {}) {
  const withLockTimeout = <T>(work: (trx: Knex.Transaction) => Promise<T>) =>
    db.transaction(async (trx) => {
      await trx.raw(LOCK_TIMEOUT, [lockTimeoutMs, lockTimeoutMs]);
      return work(trx);
    });

  return {
    /** The days that have a partition, oldest first (the partition of the events stored before days is not one). */
    async list(): Promise<Day[]> {
      const { rows } = await db.raw<{ rows: { name: string }[] }>(
        "SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass",
      );
      return rows.flatMap(({ name }) => {
        const match = PARTITION.exec(name);
        return match === null ? [] : [`${match[1]}-${match[2]}-${match[3]}`];
      }).sort();
    },

    /** Creates the partitions of the days from `first` to `last` that have none. */
    async ensure(first: Day, last: Day): Promise<Day[]> {
      const existing = new Set(await this.list());
      const created: Day[] = [];
      for (let day = first; day <= last; day = addDays(day, 1)) {
        if (existing.has(day)) continue;
        try {
          await withLockTimeout(async (trx) => {
            const partition = partitionOf(day);
            await trx.raw(`CREATE TABLE ?? PARTITION OF events FOR VALUES FROM (${dayLiteral(day)}) TO (${dayLiteral(addDays(day, 1))})`, [partition]);
            await trx.raw(ONE_MESSAGE_A_DAY, [partition, `${partition}_message`]);
          });
          created.push(day);
        } catch (error) {
          if (!createdConcurrently(error)) throw error;
        }
      }
      return created;
    },

    /** The partitions of today and the coming week (the worker's retention schedule asks every hour, the API at start). */
    async ensureComing(now = new Date()): Promise<Day[]> {
      const today = dayOf(now);
      return this.ensure(today, addDays(today, DAYS_AHEAD));
    },

    /** Whether a pending conversion's event is in that day: its steps still read the message. */
    async holdsPending(day: Day): Promise<boolean> {
      const { rows } = await db.raw<{ rows: { held: boolean }[] }>(
        "SELECT EXISTS (SELECT FROM conversions WHERE status = 'pending' AND event_received_on = ?) AS held",
        [day],
      );
      return rows[0]?.held === true;
    },

    /** Drops a day's partition with every event in it: no row is deleted, nothing is left for vacuum. */
    async drop(day: Day): Promise<void> {
      await withLockTimeout((trx) => trx.raw('DROP TABLE IF EXISTS ??', [partitionOf(day)]));
    },

    /**
     * The newest event in `events_before_days` (one step down each workspace's index on received_at), null when it is
     * empty, undefined when there is no such partition (a store created with days, or one that retention emptied).
     */
    async newestBeforeDays(): Promise<Date | null | undefined> {
      const { rows } = await db.raw<{ rows: { present: boolean; newest: Date | null }[] }>(
        `SELECT to_regclass('${BEFORE_DAYS}') IS NOT NULL AS present,
                (SELECT max(n.newest) FROM workspaces w
                 CROSS JOIN LATERAL (SELECT max(e.received_at) AS newest FROM events e WHERE e.received_on = '-infinity' AND e.workspace_id = w.id) n) AS newest`,
      );
      const [row] = rows;
      return row?.present === true ? row.newest : undefined;
    },

    /**
     * Conversions of events in `events_before_days` take their events' user and anonymous IDs where they lack them
     * (stored by an API of the previous build while `migrate` ran, after its back-fill had passed them), so that erasure
     * still finds them once those events are gone.
     */
    async giveConversionsBeforeDaysIds(): Promise<void> {
      await db.raw(
        `UPDATE conversions c SET user_id = e.user_id, anonymous_id = e.anonymous_id
         FROM events e
         WHERE e.received_on = '-infinity' AND c.event_row_id = e.id AND (c.user_id, c.anonymous_id) IS DISTINCT FROM (e.user_id, e.anonymous_id)`,
      );
    },

    /** Whether a pending conversion's event is in `events_before_days` (its steps read the message). */
    async beforeDaysHoldPending(): Promise<boolean> {
      const { rows } = await db.raw<{ rows: { held: boolean }[] }>(
        `SELECT EXISTS (SELECT 1 FROM events e JOIN conversions c ON c.event_row_id = e.id WHERE e.received_on = '-infinity' AND c.status = 'pending') AS held`,
      );
      return rows[0]?.held === true;
    },

    /** Drops `events_before_days` whole, as a day is: what row retention left of it (stripped events) goes with it. */
    async dropBeforeDays(): Promise<void> {
      await withLockTimeout((trx) => trx.raw('DROP TABLE IF EXISTS ??', [BEFORE_DAYS]));
    },
  };
}

export type EventDayRepository = ReturnType<typeof createEventDayRepository>;
