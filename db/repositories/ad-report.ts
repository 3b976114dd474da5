import type { Knex } from 'knex';
import type { AdEntityRow, AdLevel } from '../types';
import { DELIVERED_VALUE, NO_CURRENCY, REPORTED_DELIVERY } from './delivered-daily';

export { NO_CURRENCY };

export interface AdReportQuery {
  advertiserId: string;
  level: AdLevel;
  /** `YYYY-MM-DD`, both inclusive. */
  from: string;
  to: string;
  /** `day`: a row per entity and day; `total`: a row per entity over the range. */
  granularity: 'day' | 'total';
  /** Only this campaign's rows. */
  campaignId?: string;
  /** Only this ad group's rows (levels `adgroup` and `ad`). */
  adgroupId?: string;
  /** IANA zone in which a delivered conversion's time falls on a report day: the advertiser's, as TikTok's days are. */
  timeZone: string;
  /** The advertiser's currency (TikTok's spend and value are in it); null while unknown. */
  currency: string | null;
  /** One unit of another currency in the advertiser's, as exact decimal text (the workspace's exchange rates). */
  exchangeRates: Readonly<Record<string, string>>;
  limit: number;
  offset: number;
}

/**
 * Figures are exact decimal strings computed in PostgreSQL (`numeric`), never floats; ratios are rounded to 4
 * decimals and are null when their denominator is zero or unknown. Money is in the advertiser's currency, except
 * `deliveredValues`, which keeps each currency apart.
 */
export interface AdReportFigures {
  spend: string | null;
  impressions: number | null;
  clicks: number | null;
  /** spend / clicks */
  cpc: string | null;
  /** clicks / impressions × 100 (percent, like TikTok's `ctr`) */
  ctr: string | null;
  /** spend / impressions × 1,000 */
  cpm: string | null;
  conversions: number | null;
  /** spend / conversions */
  costPerConversion: string | null;
  /** conversions / clicks × 100 (percent) */
  conversionRate: string | null;
  /** Web purchase value plus app purchase value, as TikTok attributes them. */
  conversionValue: string | null;
  /** TikTok's ROAS: conversion value / spend (0 when TikTok attributed no conversion, which says nothing of the return). */
  roas: string | null;
  /** Conversions Signalbox delivered (not in test mode) whose click came from this entity. */
  deliveredConversions: number;
  /**
   * Their value per currency, never summed across currencies: `{ "EUR": "100", "USD": "100" }`. An order a rule sent
   * as several TikTok events counts each event above but its value once (`DELIVERED_VALUE` in delivered-daily.ts).
   */
  deliveredValues: Record<string, string>;
  /**
   * Their value in the advertiser's currency: the sum when every currency is the advertiser's or has an exchange rate,
   * else null (read `deliveredValues`).
   */
  deliveredValue: string | null;
  /** Signalbox's ROAS: `deliveredValue` / spend; null without spend, without a delivered value, or with a value in currencies it cannot convert. */
  deliveredRoas: string | null;
}

export interface AdReportRow extends AdReportFigures {
  level: AdLevel;
  /** `YYYY-MM-DD`; null for `granularity: 'total'`. */
  date: string | null;
  entityId: string;
  name: string | null;
  /** TikTok's status code, e.g. `CAMPAIGN_STATUS_DELIVERY_OK`. */
  status: string | null;
  campaignId: string | null;
  adgroupId: string | null;
}

/** The entity's column in the rollup (delivered-daily.ts), where a missing one is ''; in conversions it is `click_` and this. */
const ENTITY_COLUMN: Record<AdLevel, string> = { campaign: 'campaign_id', adgroup: 'adgroup_id', ad: 'ad_id' };

/**
 * Ratios and text forms shared by rows, totals and the export, by column: `t` has spend, impressions, clicks,
 * conversions, value, d_count, d_values (jsonb of currency → value text) and d_converted (the value in the advertiser's
 * currency, or null).
 */
const FIGURE_SQL: Record<keyof FigureColumns, string> = {
  spend: 'trim_scale(t.spend)::text',
  impressions: 't.impressions::text',
  clicks: 't.clicks::text',
  cpc: 'CASE WHEN t.clicks > 0 THEN trim_scale(round(t.spend / t.clicks, 4))::text END',
  ctr: 'CASE WHEN t.impressions > 0 THEN trim_scale(round(t.clicks * 100.0 / t.impressions, 4))::text END',
  cpm: 'CASE WHEN t.impressions > 0 THEN trim_scale(round(t.spend * 1000 / t.impressions, 4))::text END',
  conversions: 't.conversions::text',
  cost_per_conversion: 'CASE WHEN t.conversions > 0 THEN trim_scale(round(t.spend / t.conversions, 4))::text END',
  conversion_rate: 'CASE WHEN t.clicks > 0 THEN trim_scale(round(t.conversions * 100.0 / t.clicks, 4))::text END',
  conversion_value: 'trim_scale(t.value)::text',
  roas: 'CASE WHEN t.spend > 0 THEN trim_scale(round(t.value / t.spend, 4))::text END',
  delivered_conversions: 'coalesce(t.d_count, 0)::text',
  delivered_values: "coalesce(t.d_values, '{}'::jsonb)",
  delivered_value: 'trim_scale(t.d_converted)::text',
  delivered_roas: 'CASE WHEN t.spend > 0 AND t.d_count > 0 THEN trim_scale(round(t.d_converted / t.spend, 4))::text END',
};

const FIGURES = Object.entries(FIGURE_SQL)
  .map(([column, sql]) => `${sql} AS ${column}`)
  .join(',\n  ');

interface FigureColumns {
  spend: string | null;
  impressions: string | null;
  clicks: string | null;
  cpc: string | null;
  ctr: string | null;
  cpm: string | null;
  conversions: string | null;
  cost_per_conversion: string | null;
  conversion_rate: string | null;
  conversion_value: string | null;
  roas: string | null;
  delivered_conversions: string;
  delivered_values: Record<string, string>;
  delivered_value: string | null;
  delivered_roas: string | null;
}

interface RowColumns extends FigureColumns {
  stat_date: string | null;
  /** Set on the totals only. */
  row_count: string | null;
  entity_id: string;
  name: string | null;
  status: string | null;
  campaign_id: string | null;
  adgroup_id: string | null;
}

/** What the CSV export reads of a row: its keys (see EXPORT_KEY) and the figures it writes, as PostgreSQL's text. */
export type AdReportExportRow = Pick<
  RowColumns,
  | 'stat_date' | 'entity_id' | 'name' | 'campaign_id' | 'adgroup_id' | 'spend' | 'impressions' | 'clicks' | 'cpc' | 'ctr' | 'conversions'
  | 'conversion_value' | 'roas' | 'delivered_conversions' | 'delivered_value' | 'delivered_roas'
>;

const EXPORTED_FIGURES = [
  'spend', 'impressions', 'clicks', 'cpc', 'ctr', 'conversions', 'conversion_value', 'roas', 'delivered_conversions', 'delivered_value', 'delivered_roas',
] as const satisfies readonly (keyof AdReportExportRow & keyof FigureColumns)[];

/**
 * The campaign and ad group a row shows: its own ID at its own level, else those the report sorts it by (`campaign_id`
 * and `adgroup_id` of ROWS and of the export's page).
 */
export function shownIds(level: AdLevel, row: Pick<RowColumns, 'entity_id' | 'campaign_id' | 'adgroup_id'>): { campaignId: string | null; adgroupId: string | null } {
  return {
    campaignId: level === 'campaign' ? row.entity_id : row.campaign_id,
    adgroupId: level === 'adgroup' ? row.entity_id : level === 'ad' ? row.adgroup_id : null,
  };
}

const count = (text: string | null): number | null => (text === null ? null : Number(text));

function toFigures(c: FigureColumns): AdReportFigures {
  return {
    spend: c.spend,
    impressions: count(c.impressions),
    clicks: count(c.clicks),
    cpc: c.cpc,
    ctr: c.ctr,
    cpm: c.cpm,
    conversions: count(c.conversions),
    costPerConversion: c.cost_per_conversion,
    conversionRate: c.conversion_rate,
    conversionValue: c.conversion_value,
    roas: c.roas,
    deliveredConversions: Number(c.delivered_conversions),
    deliveredValues: c.delivered_values,
    deliveredValue: c.delivered_value,
    deliveredRoas: c.delivered_roas,
  };
}

/** Report order: dates (the totals' null first), then campaign, ad group (unknown ones last) and entity. */
const REPORT_ORDER = 't.stat_date NULLS FIRST, coalesce(t.campaign_id, e.campaign_id), coalesce(t.adgroup_id, e.adgroup_id), t.entity_id';

/** The page of rows `t` (below) gives, in report order. */
const ROWS = `
  SELECT to_char(t.stat_date, 'YYYY-MM-DD') AS stat_date, t.entity_id, e.name, e.status,
         coalesce(t.campaign_id, e.campaign_id) AS campaign_id, coalesce(t.adgroup_id, e.adgroup_id) AS adgroup_id, NULL::bigint AS row_count,
         ${FIGURES}
  FROM t LEFT JOIN ad_entities e ON e.workspace_id = ? AND e.level = ? AND e.entity_id = t.entity_id
  ORDER BY ${REPORT_ORDER}
  LIMIT ? OFFSET ?`;

/** Every row of `t` summed into one, with the delivered values summed per currency. */
const TOTALS = `
  SELECT NULL AS stat_date, NULL AS entity_id, NULL AS name, NULL AS status, NULL AS campaign_id, NULL AS adgroup_id, t.row_count,
         ${FIGURES}
  FROM (SELECT count(*) AS row_count, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks,
               sum(conversions) AS conversions, sum(value) AS value, sum(d_count) AS d_count,
               (SELECT jsonb_object_agg(currency, trim_scale(total)::text)
                FROM (SELECT v.key AS currency, sum(v.value::numeric) AS total
                      FROM t, jsonb_each_text(t.d_values) v GROUP BY v.key) per_currency) AS d_values,
               CASE WHEN bool_and(d_values IS NULL OR d_converted IS NOT NULL) THEN sum(d_converted) END AS d_converted
        FROM t) t`;

/**
 * REPORT_ORDER as a key of six values, none null, so that a page can start after a row (keyset): a null date as
 * -infinity, an unknown campaign or ad group as (true, '') after every known one (false, its ID). Only the condition
 * reads it: sorting by REPORT_ORDER itself costs PostgreSQL less.
 */
const EXPORT_KEY = [
  "coalesce(t.stat_date, '-infinity')",
  'coalesce(t.campaign_id, e.campaign_id) IS NULL',
  "coalesce(t.campaign_id, e.campaign_id, '')",
  'coalesce(t.adgroup_id, e.adgroup_id) IS NULL',
  "coalesce(t.adgroup_id, e.adgroup_id, '')",
  't.entity_id',
].join(', ');

/** The key's values of a row of the export, for the page after it. */
const exportKey = (row: AdReportExportRow): Knex.RawBinding[] => [
  row.stat_date ?? '-infinity', row.campaign_id === null, row.campaign_id ?? '', row.adgroup_id === null, row.adgroup_id ?? '', row.entity_id,
];

/** A page of `t`'s rows in report order, with only what the CSV writes; `after` adds the keyset's condition. */
const exportPage = (after: boolean) => `
  SELECT to_char(t.stat_date, 'YYYY-MM-DD') AS stat_date, t.entity_id, e.name,
         coalesce(t.campaign_id, e.campaign_id) AS campaign_id, coalesce(t.adgroup_id, e.adgroup_id) AS adgroup_id,
         ${EXPORTED_FIGURES.map((column) => `${FIGURE_SQL[column]} AS ${column}`).join(', ')}
  FROM t LEFT JOIN ad_entities e ON e.workspace_id = ? AND e.level = ? AND e.entity_id = t.entity_id
  ${after ? `WHERE (${EXPORT_KEY}) > (?::date, ?, ?, ?, ?, ?)` : ''}
  ORDER BY ${REPORT_ORDER}
  LIMIT ?`;

export function createAdReportRepository(db: Knex) {
  /**
   * The daily rollup's line for a workspace in `timeZone` (`YYYY-MM-DD`): the reports read the rollup before it and
   * the conversions from it on; '-infinity' when the workspace is not rolled up in that zone. Read ahead of the report,
   * as a value: joined into the report, it could not bound the scan of the live days, and PostgreSQL could read every
   * delivered conversion of the workspace there (issue 49, delivered-daily.integration.test.ts). The rollup only adds
   * days from its line on and rolls a day below it up again in one transaction, so a line read a moment early is exact.
   */
  async function rolledUpBefore(workspaceId: string, timeZone: string, executor: Knex): Promise<string> {
    const { rows } = await executor.raw<{ rows: { day: string }[] }>(
      `SELECT to_char((p.rolled_through AT TIME ZONE z.time_zone)::date, 'YYYY-MM-DD') AS day
       FROM rollup_progress p JOIN delivered_conversions_daily_zones z ON z.workspace_id = ? AND z.time_zone = ?
       WHERE p.name = 'delivered_conversions_daily'`,
      [workspaceId, timeZone],
    );
    return rows[0]?.day ?? '-infinity';
  }

  /**
   * TikTok's figures per entity (and day) full-joined with the conversions Signalbox delivered for the same entity
   * (and day), so a day TikTok has no row for still shows what was delivered. Delivered conversions come from the
   * daily rollup (delivered-daily.ts) for the days before its `line` (rolledUpBefore), and from the conversions
   * themselves from that day on. Delivered values are summed per currency; converted into the advertiser's currency
   * only where every currency has a rate.
   */
  function joined(workspaceId: string, q: Omit<AdReportQuery, 'limit' | 'offset'>, line: string): { sql: string; bindings: Knex.RawBinding[] } {
    const byDay = q.granularity === 'day';
    const entity = ENTITY_COLUMN[q.level];
    // Each scope (campaign, ad group) narrows TikTok's rows, the rolled-up deliveries and the live ones alike.
    const scopes = [
      ...(q.campaignId === undefined ? [] : [{ value: q.campaignId, stats: 's.campaign_id', rolled: 'r.campaign_id', live: 'c.click_campaign_id' }]),
      ...(q.adgroupId === undefined ? [] : [{ value: q.adgroupId, stats: 's.adgroup_id', rolled: 'r.adgroup_id', live: 'c.click_adgroup_id' }]),
    ];
    const filter = (column: 'stats' | 'rolled' | 'live') => scopes.map((scope) => `AND ${scope[column]} = ?`).join(' ');
    const statsScope = filter('stats');
    const rolledScope = filter('rolled');
    const liveScope = filter('live');
    // Dates as YYYY-MM-DD compare as text, and '-infinity' before all of them.
    const liveFrom = line > q.from ? line : q.from;
    const sql = `
      WITH stats AS (
        -- By day, the primary key (workspace, level, entity, day) leaves nothing to add up.
        SELECT s.entity_id, ${byDay
          ? 's.stat_date, s.campaign_id, s.adgroup_id, s.spend, s.impressions, s.clicks, s.conversions, s.conversion_value AS value'
          : `NULL::date AS stat_date, max(s.campaign_id) AS campaign_id, max(s.adgroup_id) AS adgroup_id, sum(s.spend) AS spend,
             sum(s.impressions) AS impressions, sum(s.clicks) AS clicks, sum(s.conversions) AS conversions, sum(s.conversion_value) AS value`}
        FROM ad_stats_daily s
        WHERE s.workspace_id = ? AND s.advertiser_id = ? AND s.level = ? AND s.stat_date BETWEEN ?::date AND ?::date ${statsScope}
        ${byDay ? '' : 'GROUP BY s.entity_id'}
      ),
      delivered_by_currency AS (
        SELECT d.entity_id, d.stat_date, d.currency, max(d.campaign_id) AS campaign_id, max(d.adgroup_id) AS adgroup_id, sum(d.n) AS n, sum(d.v) AS v
        FROM (
          SELECT r.${entity} AS entity_id, ${byDay ? 'r.day' : 'NULL::date'} AS stat_date, r.currency,
                 nullif(r.campaign_id, '') AS campaign_id, nullif(r.adgroup_id, '') AS adgroup_id, r.conversions AS n, r.value AS v
          FROM delivered_conversions_daily r
          WHERE r.workspace_id = ? AND r.day BETWEEN ?::date AND ?::date AND r.day < ?::date AND r.${entity} <> '' ${rolledScope}
          UNION ALL
          SELECT c.click_${entity}, ${byDay ? '(c.event_time AT TIME ZONE ?)::date' : 'NULL::date'}, coalesce(c.currency, '${NO_CURRENCY}'),
                 c.click_campaign_id, c.click_adgroup_id, 1, ${DELIVERED_VALUE}
          FROM conversions c
          WHERE c.workspace_id = ? AND ${REPORTED_DELIVERY} AND c.click_${entity} IS NOT NULL
            -- The plain range on event_time (a day either side covers every zone) lets the index narrow the scan.
            AND c.event_time >= ?::date - 1 AND c.event_time < ?::date + 2
            AND (c.event_time AT TIME ZONE ?)::date >= ?::date AND (c.event_time AT TIME ZONE ?)::date <= ?::date ${liveScope}
        ) d
        GROUP BY 1, 2, 3
      ),
      delivered AS (
        SELECT d.entity_id, d.stat_date, max(d.campaign_id) AS campaign_id, max(d.adgroup_id) AS adgroup_id, sum(d.n) AS d_count,
               jsonb_object_agg(d.currency, trim_scale(d.v)::text) FILTER (WHERE d.v IS NOT NULL) AS d_values,
               CASE WHEN bool_and(d.v IS NULL OR r.rate IS NOT NULL) THEN sum(d.v * r.rate) END AS d_converted
        FROM delivered_by_currency d
        CROSS JOIN LATERAL (
          SELECT CASE WHEN d.currency = ?::text THEN 1::numeric ELSE (?::jsonb ->> d.currency)::numeric END AS rate
        ) r
        GROUP BY d.entity_id, d.stat_date
      ),
      t AS (
        SELECT coalesce(stats.entity_id, delivered.entity_id) AS entity_id,
               coalesce(stats.stat_date, delivered.stat_date) AS stat_date,
               coalesce(stats.campaign_id, delivered.campaign_id) AS campaign_id,
               coalesce(stats.adgroup_id, delivered.adgroup_id) AS adgroup_id,
               stats.spend, stats.impressions, stats.clicks, stats.conversions, stats.value,
               delivered.d_count, delivered.d_values, delivered.d_converted
        FROM stats FULL JOIN delivered
          -- Equality on coalesce (not IS NOT DISTINCT FROM) lets PostgreSQL hash the join instead of comparing every pair.
          ON delivered.entity_id = stats.entity_id AND coalesce(delivered.stat_date, '-infinity') = coalesce(stats.stat_date, '-infinity')
      )`;
    const scopeValues = scopes.map((scope) => scope.value);
    const bindings: Knex.RawBinding[] = [
      workspaceId, q.advertiserId, q.level, q.from, q.to, ...scopeValues,
      workspaceId, q.from, q.to, line, ...scopeValues,
      ...(byDay ? [q.timeZone] : []), workspaceId, liveFrom, q.to, q.timeZone, liveFrom, q.timeZone, q.to, ...scopeValues,
      q.currency, JSON.stringify(q.exchangeRates),
    ];
    return { sql, bindings };
  }

  function toRow(q: AdReportQuery, r: RowColumns): AdReportRow {
    return {
      level: q.level,
      date: r.stat_date,
      entityId: r.entity_id,
      name: r.name,
      status: r.status,
      ...shownIds(q.level, r),
      ...toFigures(r),
    };
  }

  return {
    /** How many entities of the level TikTok named for the advertiser (in the campaign, if one is given): about a report's rows per day. */
    async entityCount(workspaceId: string, q: Pick<AdReportQuery, 'advertiserId' | 'level' | 'campaignId' | 'adgroupId'>, executor: Knex = db): Promise<number> {
      const entities = executor('ad_entities').where({ workspace_id: workspaceId, level: q.level, advertiser_id: q.advertiserId });
      if (q.campaignId !== undefined) entities.where({ campaign_id: q.campaignId });
      if (q.adgroupId !== undefined) entities.where({ adgroup_id: q.adgroupId });
      const [row] = await entities.count({ n: '*' });
      return Number(row?.n ?? 0);
    },

    /** The names TikTok gave a campaign and an ad group (for a breadcrumb); null where TikTok named none or it is unknown. */
    async entityNames(
      workspaceId: string,
      advertiserId: string,
      ids: { campaignId?: string; adgroupId?: string },
      executor: Knex = db,
    ): Promise<{ campaign: string | null; adgroup: string | null }> {
      const wanted = [
        ...(ids.campaignId === undefined ? [] : [['campaign', ids.campaignId]]),
        ...(ids.adgroupId === undefined ? [] : [['adgroup', ids.adgroupId]]),
      ] as [AdLevel, string][];
      if (wanted.length === 0) return { campaign: null, adgroup: null };
      const rows: Pick<AdEntityRow, 'level' | 'name'>[] = await executor('ad_entities')
        .select('level', 'name')
        .where({ workspace_id: workspaceId, advertiser_id: advertiserId })
        .whereIn(['level', 'entity_id'], wanted);
      const name = (level: AdLevel) => rows.find((row) => row.level === level)?.name ?? null;
      return { campaign: name('campaign'), adgroup: name('adgroup') };
    },

    /**
     * The export's page of `limit` rows after the row `after` (the first page without), without the totals. A page of
     * days after the first reads only from the day it starts on (by day, a day's rows depend on no other day).
     */
    async exportRows(workspaceId: string, q: Omit<AdReportQuery, 'offset'>, after?: AdReportExportRow, executor: Knex = db): Promise<AdReportExportRow[]> {
      const from = after?.stat_date ?? q.from;
      const base = joined(workspaceId, { ...q, from }, await rolledUpBefore(workspaceId, q.timeZone, executor));
      const { rows } = await executor.raw<{ rows: AdReportExportRow[] }>(`${base.sql} ${exportPage(after !== undefined)}`, [
        ...base.bindings,
        workspaceId,
        q.level,
        ...(after === undefined ? [] : exportKey(after)),
        q.limit,
      ]);
      return rows;
    },

    /** A page of rows and, in the same statement, the figures summed over every entity and day of the query. */
    async rowsAndTotals(workspaceId: string, q: AdReportQuery, executor: Knex = db): Promise<{ rows: AdReportRow[]; totals: AdReportFigures & { rows: number } }> {
      const base = joined(workspaceId, q, await rolledUpBefore(workspaceId, q.timeZone, executor));
      const { rows } = await executor.raw<{ rows: RowColumns[] }>(
        `${base.sql}
         SELECT * FROM (${ROWS}) page
         UNION ALL
         ${TOTALS}
         ORDER BY row_count NULLS FIRST, stat_date NULLS FIRST, campaign_id, adgroup_id, entity_id`,
        [...base.bindings, workspaceId, q.level, q.limit, q.offset],
      );
      const totals = rows.pop() as RowColumns;
      return { rows: rows.map((r) => toRow(q, r)), totals: { rows: Number(totals.row_count), ...toFigures(totals) } };
    },
  };
}

export type AdReportRepository = ReturnType<typeof createAdReportRepository>;
