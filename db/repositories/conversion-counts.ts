import type { Knex } from 'knex';

const PROGRESS = 'conversion_counts_hourly';
/**
 * Conversions settle within minutes (delivered, skipped or failed), so hours older than this are rolled up; younger
 * ones are always counted live. An older conversion that changes later (a retry, a historical import) is found
 * through the ID watermarks below and its hour rolled up again.
 */
export const CONVERSION_SETTLE_MS = 7 * 86_400_000;
const HOUR_MS = 3_600_000;
const HOURS_PER_STEP = 24 * 7;

const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/** A workspace's conversions of [?, ?) grouped as the rollup stores them (`w.id` is the workspace). */
const GROUPED = `
  SELECT w.id, g.* FROM workspaces w CROSS JOIN LATERAL (
    SELECT date_bin('1 hour', event_time, '2000-01-01T00:00:00Z') AS hour, tiktok_event, status, coalesce(reason, '') AS reason,
           coalesce(tiktok_code, 0) AS tiktok_code, test_mode, count(*) AS conversions, count(*) FILTER (WHERE event_id <> message_id) AS shareable
    FROM conversions c WHERE c.workspace_id = w.id AND c.event_time >= ? AND c.event_time < ?
    GROUP BY 1, 2, 3, 4, 5, 6
  ) g`;
const UPSERT = `
  ON CONFLICT (workspace_id, hour, tiktok_event, status, reason, tiktok_code, test_mode)
  DO UPDATE SET conversions = excluded.conversions, shareable = excluded.shareable`;

interface Watermarks {
  /** Conversions of events after this ID are new since the previous run. */
  eventRowId: string;
  /** conversion_history rows after this ID (retries, late outcomes) are new since the previous run. */
  historyId: string;
}

/**
 * The rollup behind the overview's conversion figures, maintained by the periodic console-rollup job, never by the
 * pipeline. Each run scans the IDs after the watermark of the run before last, so a transaction that committed a
 * little after its ID was drawn is still seen (recomputing an hour twice changes nothing).
 */
export function createConversionCountRepository(db: Knex) {
  async function maxIds(trx: Knex): Promise<Watermarks> {
    const { rows } = await trx.raw<{ rows: { event_row_id: string | null; history_id: string | null }[] }>(
      'SELECT (SELECT max(id) FROM events)::text AS event_row_id, (SELECT max(id) FROM conversion_history)::text AS history_id',
    );
    return { eventRowId: rows[0]?.event_row_id ?? '0', historyId: rows[0]?.history_id ?? '0' };
  }

  /** Recomputes every (workspace, hour) below `through` touched by conversions or history rows after the watermarks. */
  async function rollUpAgain(trx: Knex, since: Watermarks, through: Date): Promise<number> {
    const { rows } = await trx.raw<{ rows: { workspace_id: string; hour: Date }[] }>(
      `SELECT DISTINCT c.workspace_id, date_bin('1 hour', c.event_time, '2000-01-01T00:00:00Z') AS hour FROM conversions c
       WHERE c.event_row_id > ? AND c.event_time < ?
       UNION
       SELECT c.workspace_id, date_bin('1 hour', c.event_time, '2000-01-01T00:00:00Z') FROM conversion_history h JOIN conversions c ON c.id = h.conversion_id
       WHERE h.id > ? AND c.event_time < ?`,
      [since.eventRowId, through, since.historyId, through],
    );
    for (const { workspace_id: workspaceId, hour } of rows) {
      const end = new Date(hour.getTime() + HOUR_MS);
      await trx('conversion_counts_hourly').where({ workspace_id: workspaceId, hour }).delete();
      await trx.raw(`INSERT INTO conversion_counts_hourly ${GROUPED} WHERE w.id = ? ${UPSERT}`, [hour, end, workspaceId]);
    }
    return rows.length;
  }

  return {
    async rolledThrough(executor: Knex = db): Promise<Date | undefined> {
      const row = await executor('rollup_progress').where({ name: PROGRESS }).first('rolled_through');
      return row?.rolled_through;
    },

    /** One run of the job: hours that changed below the rolled-up line, then the hours that have settled since. */
    async rollUp(now: Date, executor: Knex = db): Promise<{ hours: number; rolledUpAgain: number }> {
      return executor.transaction(async (trx) => {
        const { rows } = await trx.raw<{ rows: { locked: boolean }[] }>("SELECT pg_try_advisory_xact_lock(hashtext('signalbox:conversion_counts_hourly')) AS locked");
        if (!rows[0]?.locked) return { hours: 0, rolledUpAgain: 0 };
        const target = floorHour(new Date(now.getTime() - CONVERSION_SETTLE_MS));
        const ids = await maxIds(trx);
        const progress = await trx('rollup_progress').where({ name: PROGRESS }).first();
        let start: Date;
        let rolledUpAgain = 0;
        let watermarks: Record<string, string>;
        if (progress === undefined) {
          const first = await trx('conversions').min<{ min: Date | null }[]>({ min: 'event_time' });
          start = first[0]?.min ? floorHour(first[0].min) : target;
          watermarks = { eventRowId: ids.eventRowId, historyId: ids.historyId, nextEventRowId: ids.eventRowId, nextHistoryId: ids.historyId };
        } else {
          start = progress.rolled_through;
          const since = { eventRowId: progress.watermarks.eventRowId ?? '0', historyId: progress.watermarks.historyId ?? '0' };
          rolledUpAgain = await rollUpAgain(trx, since, start);
          watermarks = {
            eventRowId: progress.watermarks.nextEventRowId ?? ids.eventRowId,
            historyId: progress.watermarks.nextHistoryId ?? ids.historyId,
            nextEventRowId: ids.eventRowId,
            nextHistoryId: ids.historyId,
          };
        }
        let through = start;
        while (through < target) {
          const stepEnd = new Date(Math.min(target.getTime(), through.getTime() + HOURS_PER_STEP * HOUR_MS));
          await trx.raw(`INSERT INTO conversion_counts_hourly ${GROUPED} ${UPSERT}`, [through, stepEnd]);
          through = stepEnd;
        }
        const rolledThrough = through > start ? through : start;
        await trx('rollup_progress')
          .insert({ name: PROGRESS, rolled_through: rolledThrough, watermarks: JSON.stringify(watermarks) as never })
          .onConflict('name')
          .merge();
        return { hours: Math.round((rolledThrough.getTime() - start.getTime()) / HOUR_MS), rolledUpAgain };
      });
    },
  };
}

export type ConversionCountRepository = ReturnType<typeof createConversionCountRepository>;
