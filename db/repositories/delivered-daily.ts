import type { Knex } from 'knex';
import { advanceWatermarks, CHANGED_CONVERSIONS, changedBindings, type Watermarks } from './conversion-watermarks';

const PROGRESS = 'delivered_conversions_daily';
const HOUR_MS = 3_600_000;
/**
 * The rollup's line is this far back: days that ended before it are rolled up, later ones read live. A changed
 * conversion below it rolls its whole workspace day up again, so the line waits a day, past the conversions sent a
 * little late (an order timestamped when it was placed, sent when paid), instead of an hour as the hourly counts do.
 */
const DELIVERED_SETTLE_MS = 86_400_000;

/** The ISO 4217 code for "no currency": a delivered value whose conversion named none. */
export const NO_CURRENCY = 'XXX';

/** What the ad reports count as delivered (`c` is conversions): production conversions TikTok accepted. */
export const REPORTED_DELIVERY = "c.status = 'delivered' AND NOT c.test_mode";

/**
 * What a delivered conversion (`c`) adds to the delivered value: its value when it is its rule's own TikTok event,
 * else nothing. A rule may send one order as several TikTok events (domain/rule-events.ts), each a conversion with the
 * order's value; each counts as a delivered conversion, but the order's value counts once, as TikTok's value does.
 * When the rule's own event was not delivered, the additional ones it was sent as add no value.
 */
export const DELIVERED_VALUE = 'CASE WHEN c.rule_event_index = 0 THEN c.value END';

/** The zone of a workspace's report days (`w` is workspaces): its advertiser's, UTC until TikTok reported it. */
const WORKSPACE_ZONE = "coalesce((SELECT t.advertiser_time_zone FROM tiktok_connections t WHERE t.workspace_id = w.id), 'UTC')";

/**
 * Inserts the delivered conversions of one workspace's days [first, end) in a zone, grouped as the rollup stores them
 * (see rollUpDays for the bindings). The plain event_time range (a day either side covers every zone) lets the index
 * narrow the scan.
 */
const INSERT_DAYS = `
  INSERT INTO delivered_conversions_daily (workspace_id, day, campaign_id, adgroup_id, ad_id, currency, conversions, value)
  SELECT c.workspace_id, (c.event_time AT TIME ZONE ?)::date, coalesce(c.click_campaign_id, ''), coalesce(c.click_adgroup_id, ''), coalesce(c.click_ad_id, ''),
         coalesce(c.currency, '${NO_CURRENCY}'), count(*), sum(${DELIVERED_VALUE})
  FROM conversions c
  WHERE c.workspace_id = ? AND ${REPORTED_DELIVERY} AND num_nonnulls(c.click_campaign_id, c.click_adgroup_id, c.click_ad_id) > 0
    AND c.event_time >= ?::date - 1 AND c.event_time < ?::date + 1 AND (c.event_time AT TIME ZONE ?)::date >= ?::date AND (c.event_time AT TIME ZONE ?)::date < ?::date
  GROUP BY 1, 2, 3, 4, 5, 6`;

const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/**
 * The ad reports' delivered side rolled up per workspace, day of its advertiser's zone, click entity and currency, by
 * the periodic console-rollup job, never by the pipeline. The line is one instant for every workspace: the days that
 * ended before it in the workspace's zone are rolled up, later ones are counted live (ad-report.ts), so figures are
 * exact whatever the job's lag. A day that changes after its rollup is found through the watermarks of
 * conversion-watermarks.ts and rolled up again; a workspace whose advertiser's zone changed is rolled up again whole,
 * and read live until then.
 */
export function createDeliveredDailyRepository(db: Knex) {
  async function rollUpDays(trx: Knex, workspaceId: string, timeZone: string, from: string, to: string): Promise<void> {
    await trx.raw(INSERT_DAYS, [timeZone, workspaceId, from, to, timeZone, from, timeZone, to]);
  }

  /** Days below the old line (in the zone each workspace was rolled up in) touched by changes after the watermarks. */
  async function rollUpAgain(trx: Knex, since: Watermarks, line: Date): Promise<number> {
    const { rows } = await trx.raw<{ rows: { workspace_id: string; time_zone: string; day: string; next_day: string }[] }>(
      `SELECT workspace_id, time_zone, to_char(day, 'YYYY-MM-DD') AS day, to_char(day + 1, 'YYYY-MM-DD') AS next_day
       FROM (SELECT DISTINCT z.workspace_id, z.time_zone, (changed.event_time AT TIME ZONE z.time_zone)::date AS day
             FROM (${CHANGED_CONVERSIONS}) changed JOIN delivered_conversions_daily_zones z ON z.workspace_id = changed.workspace_id) touched
       WHERE day < (?::timestamptz AT TIME ZONE time_zone)::date`,
      [...changedBindings(since), line],
    );
    for (const { workspace_id: workspaceId, time_zone: timeZone, day, next_day: nextDay } of rows) {
      await trx('delivered_conversions_daily').where({ workspace_id: workspaceId, day }).delete();
      await rollUpDays(trx, workspaceId, timeZone, day, nextDay);
    }
    return rows.length;
  }

  return {
    /**
     * One run of the job: days that changed below the line, then for every workspace rolled up in its current zone
     * the days that ended between the old line and the new one, then whole the workspaces new to the rollup or whose
     * zone changed. Returns how many workspace days were rolled up again and how many workspaces whole.
     */
    async rollUp(now: Date, executor: Knex = db): Promise<{ rolledUpAgain: number; workspacesRebuilt: number }> {
      return executor.transaction(async (trx) => {
        const { rows: lock } = await trx.raw<{ rows: { locked: boolean }[] }>("SELECT pg_try_advisory_xact_lock(hashtext('signalbox:delivered_conversions_daily')) AS locked");
        if (!lock[0]?.locked) return { rolledUpAgain: 0, workspacesRebuilt: 0 };
        const progress = await trx('rollup_progress').where({ name: PROGRESS }).first();
        const { since, store } = await advanceWatermarks(trx, progress?.watermarks);
        const target = floorHour(new Date(now.getTime() - DELIVERED_SETTLE_MS));
        const line = progress !== undefined && progress.rolled_through > target ? progress.rolled_through : target;
        let rolledUpAgain = 0;
        if (progress !== undefined && since !== undefined) {
          rolledUpAgain = await rollUpAgain(trx, since, progress.rolled_through);
          const { rows: current } = await trx.raw<{ rows: { id: string; time_zone: string; from: string; to: string }[] }>(
            `SELECT w.id, z.time_zone, to_char((?::timestamptz AT TIME ZONE z.time_zone)::date, 'YYYY-MM-DD') AS "from",
                    to_char((?::timestamptz AT TIME ZONE z.time_zone)::date, 'YYYY-MM-DD') AS "to"
             FROM workspaces w JOIN delivered_conversions_daily_zones z ON z.workspace_id = w.id AND z.time_zone = ${WORKSPACE_ZONE}`,
            [progress.rolled_through, line],
          );
          for (const workspace of current) {
            if (workspace.from < workspace.to) await rollUpDays(trx, workspace.id, workspace.time_zone, workspace.from, workspace.to);
          }
        }
        const { rows: stale } = await trx.raw<{ rows: { id: string; time_zone: string; to: string }[] }>(
          `SELECT w.id, s.time_zone, to_char((?::timestamptz AT TIME ZONE s.time_zone)::date, 'YYYY-MM-DD') AS "to"
           FROM workspaces w CROSS JOIN LATERAL (SELECT ${WORKSPACE_ZONE} AS time_zone) s
           LEFT JOIN delivered_conversions_daily_zones z ON z.workspace_id = w.id
           WHERE z.time_zone IS DISTINCT FROM s.time_zone`,
          [line],
        );
        for (const workspace of stale) {
          await trx('delivered_conversions_daily').where({ workspace_id: workspace.id }).delete();
          await rollUpDays(trx, workspace.id, workspace.time_zone, '-infinity', workspace.to);
          await trx('delivered_conversions_daily_zones').insert({ workspace_id: workspace.id, time_zone: workspace.time_zone }).onConflict('workspace_id').merge();
        }
        await trx('rollup_progress')
          .insert({ name: PROGRESS, rolled_through: line, watermarks: JSON.stringify(store) as never })
          .onConflict('name')
          .merge();
        return { rolledUpAgain, workspacesRebuilt: stale.length };
      });
    },
  };
}

export type DeliveredDailyRepository = ReturnType<typeof createDeliveredDailyRepository>;
