import type { Knex } from 'knex';
import { advanceWatermarks, CHANGED_CONVERSIONS, changedBindings, type Watermarks } from './conversion-watermarks';

const PROGRESS = 'conversion_counts_hourly';
/**
 * Conversions settle within seconds (delivered, skipped or failed), so hours that ended this long ago are rolled up;
 * younger ones are counted live, an hour or two of conversions whatever the rate. One that changes later (a retry
 * after an outage, a late outcome, an event sent days late, a historical import) is found through the ID watermarks
 * below and its hour rolled up again: an hour of one workspace.
 */
const CONVERSION_SETTLE_MS = 3_600_000;
const HOUR_MS = 3_600_000;
const HOURS_PER_STEP = 24 * 7;

const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Counts the conversions whose event_id came from the event (`properties.event_id` or the order ID), so a pixel can
 * share it: not the messageId, nor (an additional event of its rule) the messageId with the TikTok event's suffix.
 */
export const SHAREABLE_COUNT = "count(*) FILTER (WHERE event_id NOT IN (message_id, message_id || ':' || tiktok_event))";

/** A workspace's conversions of [?, ?) grouped as the rollup stores them (`w.id` is the workspace). */
const GROUPED = `
  SELECT w.id, g.* FROM workspaces w CROSS JOIN LATERAL (
    SELECT date_bin('1 hour', event_time, '2000-01-01T00:00:00Z') AS hour, tiktok_event, status, coalesce(reason, '') AS reason,
           coalesce(tiktok_code, 0) AS tiktok_code, test_mode, count(*) AS conversions, ${SHAREABLE_COUNT} AS shareable,
           sent_without_click
    FROM conversions c WHERE c.workspace_id = w.id AND c.event_time >= ? AND c.event_time < ?
    GROUP BY 1, 2, 3, 4, 5, 6, sent_without_click
  ) g`;
const UPSERT = `
  ON CONFLICT (workspace_id, hour, tiktok_event, status, reason, tiktok_code, test_mode, sent_without_click)
  DO UPDATE SET conversions = excluded.conversions, shareable = excluded.shareable`;

/**
 * The rollup behind the overview's conversion figures, maintained by the periodic console-rollup job, never by the
 * pipeline; hours that change after their rollup are found through the watermarks of conversion-watermarks.ts.
 */
export function createConversionCountRepository(db: Knex) {
  /** Recomputes every (workspace, hour) below `through` touched by conversions or history rows after the watermarks. */
  async function rollUpAgain(trx: Knex, since: Watermarks, through: Date): Promise<number> {
    const { rows } = await trx.raw<{ rows: { workspace_id: string; hour: Date }[] }>(
      `SELECT DISTINCT workspace_id, date_bin('1 hour', event_time, '2000-01-01T00:00:00Z') AS hour FROM (${CHANGED_CONVERSIONS}) changed WHERE event_time < ?`,
      [...changedBindings(since), through],
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
        const progress = await trx('rollup_progress').where({ name: PROGRESS }).first();
        const { since, store } = await advanceWatermarks(trx, progress?.watermarks);
        let start: Date;
        let rolledUpAgain = 0;
        if (progress === undefined || since === undefined) {
          const first = await trx('conversions').min<{ min: Date | null }[]>({ min: 'event_time' });
          start = first[0]?.min ? floorHour(first[0].min) : target;
        } else {
          start = progress.rolled_through;
          rolledUpAgain = await rollUpAgain(trx, since, start);
        }
        let through = start;
        while (through < target) {
          const stepEnd = new Date(Math.min(target.getTime(), through.getTime() + HOURS_PER_STEP * HOUR_MS));
          await trx.raw(`INSERT INTO conversion_counts_hourly ${GROUPED} ${UPSERT}`, [through, stepEnd]);
          through = stepEnd;
        }
        const rolledThrough = through > start ? through : start;
        await trx('rollup_progress')
          .insert({ name: PROGRESS, rolled_through: rolledThrough, watermarks: JSON.stringify(store) as never })
          .onConflict('name')
          .merge();
        return { hours: Math.round((rolledThrough.getTime() - start.getTime()) / HOUR_MS), rolledUpAgain };
      });
    },
  };
}

export type ConversionCountRepository = ReturnType<typeof createConversionCountRepository>;
