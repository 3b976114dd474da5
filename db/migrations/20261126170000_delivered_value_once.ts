import type { Knex } from 'knex';

/**
 * An order a rule sends as several TikTok events (its own and the ones in `also_send_as`) is a conversion per TikTok
 * event, each carrying the order's value. The ad reports' delivered value now counts the value of the rule's own
 * event only (`rule_event_index = 0`), once per order, while still counting every delivered event as a conversion.
 * The daily rollup summed every event's value: this corrects the value of the rows already rolled up, recomputed from
 * the conversions. Only the rows of (workspace, day) that had an additional event delivered change.
 *
 * Safe while the system runs: it takes the rollup job's own advisory lock, so no run of the job interleaves (a run
 * meanwhile finds the lock taken and does nothing until its next turn); it reads conversions without blocking the
 * pipeline, and updates rollup rows in place, so reports read the old value or the new one, never a missing row. The
 * conversion counts are left as they are. A worker of the previous build that rolls up a day after this ran (until the
 * workers are rolled, OPERATIONS.md "A release") would store that day's doubled value: roll the workers right after
 * `signalbox migrate`. Frozen: imports no application code.
 */
const LOCK = "SELECT pg_advisory_xact_lock(hashtext('signalbox:delivered_conversions_daily'))";

/** `value` is what each delivered conversion (`c`) adds to a rolled-up row's value. */
const recompute = (value: string) => `
  WITH touched AS (
    SELECT DISTINCT z.workspace_id, z.time_zone, (c.event_time AT TIME ZONE z.time_zone)::date AS day
    FROM conversions c JOIN delivered_conversions_daily_zones z ON z.workspace_id = c.workspace_id
    WHERE c.rule_event_index > 0 AND c.status = 'delivered' AND NOT c.test_mode
  ),
  rolled AS (
    SELECT t.workspace_id, t.day, coalesce(c.click_campaign_id, '') AS campaign_id, coalesce(c.click_adgroup_id, '') AS adgroup_id,
           coalesce(c.click_ad_id, '') AS ad_id, coalesce(c.currency, 'XXX') AS currency, sum(${value}) AS value
    FROM touched t JOIN conversions c ON c.workspace_id = t.workspace_id
      AND c.event_time >= t.day - 1 AND c.event_time < t.day + 2 AND (c.event_time AT TIME ZONE t.time_zone)::date = t.day
    WHERE c.status = 'delivered' AND NOT c.test_mode AND num_nonnulls(c.click_campaign_id, c.click_adgroup_id, c.click_ad_id) > 0
    GROUP BY 1, 2, 3, 4, 5, 6
  )
  UPDATE delivered_conversions_daily r SET value = rolled.value
  FROM rolled
  WHERE r.workspace_id = rolled.workspace_id AND r.day = rolled.day AND r.campaign_id = rolled.campaign_id
    AND r.adgroup_id = rolled.adgroup_id AND r.ad_id = rolled.ad_id AND r.currency = rolled.currency
    AND r.value IS DISTINCT FROM rolled.value`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(LOCK);
  await knex.raw(recompute('CASE WHEN c.rule_event_index = 0 THEN c.value END'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(LOCK);
  await knex.raw(recompute('c.value'));
}
