import type { Knex } from 'knex';
import { MATCH_RATE_KEYS } from '../../domain/match-rate';
import type { TikTokEventSource } from '../../domain/tiktok-wire';
import type { ConversionStatus } from '../types';
import { SHAREABLE_COUNT } from './conversion-counts';

export interface ConversionDayCount {
  /** `YYYY-MM-DD` in the query's time zone. */
  day: string;
  tiktokEvent: string;
  status: ConversionStatus;
  reason: string | null;
  tiktokCode: number | null;
  testMode: boolean;
  /** Delivered with no click inside the attribution window (TikTok matched them on other keys), counted apart. */
  sentWithoutClick: boolean;
  conversions: number;
  /** Of which carried an event_id from the event (`properties.event_id` or the order ID), so a pixel can share it. */
  shareable: number;
}

export interface TikTokEventActivity {
  tiktokEvent: string;
  /** Newest delivered production conversion (not test mode). */
  lastDeliveredAt: Date | null;
  /** Delivered production conversions in the 7 days before now, from the start of that hour. */
  deliveredLast7Days: number;
}

/** Match keys the coverage figure counts, as named in TikTok's `user` object and in `conversions.match_keys`. */
export const COVERED_MATCH_KEYS = [
  'ttclid', 'ttp', 'email', 'phone', 'external_id', 'first_name', 'last_name', 'city', 'state', 'country', 'zip_code', 'ip', 'user_agent',
] as const;
export type CoveredMatchKey = (typeof COVERED_MATCH_KEYS)[number];

export interface MatchKeyCoverage {
  /** Delivered production conversions counted (the newest of the period, at most the sample size). */
  delivered: number;
  sampleLimit: number;
  withKey: Record<CoveredMatchKey, number>;
  /** Of which carried at least one of the match rate's keys (domain/match-rate.ts). */
  matched: number;
}

/** One TikTok event's delivered production conversions of one source (its newest, at most the sample size) and the keys they carried. */
export interface EventMatchKeys {
  tiktokEvent: string;
  source: TikTokEventSource;
  delivered: number;
  withKey: Record<CoveredMatchKey, number>;
}

/** Every source a conversion comes from, in the order people read them. */
export const CONVERSION_SOURCES: readonly TikTokEventSource[] = ['web', 'app', 'offline', 'crm'];

/** Coverage reads payloads (jsonb); the newest 2,000 delivered conversions of the period estimate a share within about 1%. */
export const COVERAGE_SAMPLE = 2_000;

/** The keys a delivered conversion carried: recorded by the pipeline, else the `user` object of the payload sent. */
const CARRIED_KEYS = "coalesce(match_keys, request_payload #> '{data,0,user}', '{}'::jsonb)";
const KEY_COUNTS = COVERED_MATCH_KEYS.map((key) => `count(*) FILTER (WHERE keys \\? '${key}')::int AS "${key}"`).join(', ');
const MATCHED_COUNT = `count(*) FILTER (WHERE keys \\?| array[${MATCH_RATE_KEYS.map((key) => `'${key}'`).join(', ')}])::int AS matched`;

const keyCounts = (row: Record<CoveredMatchKey, number>) => Object.fromEntries(COVERED_MATCH_KEYS.map((key) => [key, row[key]])) as Record<CoveredMatchKey, number>;

/**
 * Conversions of [from, to) by UTC hour and outcome: the rolled-up hours (conversion-counts.ts) below its line, the
 * conversions themselves from there on (through the `conversions_by_event_time` index). Hours are whole, so days of
 * zones with a :30 or :45 offset are cut at the UTC hour.
 */
const COUNTED = `
  WITH counted AS (
    SELECT hour, tiktok_event, status, reason, tiktok_code, test_mode, sent_without_click, conversions, shareable FROM conversion_counts_hourly
    WHERE workspace_id = ? AND hour > ?::timestamptz - interval '1 hour' AND hour < ? AND hour < ?
    UNION ALL
    SELECT date_bin('1 hour', event_time, '2000-01-01T00:00:00Z'), tiktok_event, status, coalesce(reason, ''), coalesce(tiktok_code, 0), test_mode,
           sent_without_click, count(*), ${SHAREABLE_COUNT}
    FROM conversions WHERE workspace_id = ? AND event_time >= ? AND event_time < ?
    GROUP BY 1, 2, 3, 4, 5, 6, 7
  )`;

async function countedBindings(executor: Knex, workspaceId: string, range: { from: Date; to: Date }): Promise<Knex.RawBinding[]> {
  const row = await executor('rollup_progress').where({ name: 'conversion_counts_hourly' }).first('rolled_through');
  const through = row?.rolled_through ?? range.from;
  const liveFrom = new Date(Math.max(range.from.getTime(), Math.min(through.getTime(), range.to.getTime())));
  return [workspaceId, range.from, range.to, through, workspaceId, liveFrom, range.to];
}

/** The overview's conversion figures. */
export function createConversionFigureRepository(db: Knex) {
  return {
    /** Per day of the zone: rolled-up hours below the rollup's line, the conversions themselves above it. */
    async perDay(workspaceId: string, range: { from: Date; to: Date; timeZone: string }, executor: Knex = db): Promise<ConversionDayCount[]> {
      const { rows } = await executor.raw<{
        rows: {
          day: string;
          tiktok_event: string;
          status: ConversionStatus;
          reason: string | null;
          tiktok_code: number | null;
          test_mode: boolean;
          sent_without_click: boolean;
          conversions: string;
          shareable: string;
        }[];
      }>(
        // Grouped by the date first and formatted after: to_char on every hour costs more than the rest.
        `${COUNTED}
         SELECT to_char(day, 'YYYY-MM-DD') AS day, tiktok_event, status, nullif(reason, '') AS reason, nullif(tiktok_code, 0) AS tiktok_code, test_mode,
                sent_without_click, conversions::text, shareable::text
         FROM (SELECT (hour AT TIME ZONE ?)::date AS day, tiktok_event, status, reason, tiktok_code, test_mode, sent_without_click,
                      sum(conversions) AS conversions, sum(shareable) AS shareable
               FROM counted GROUP BY 1, 2, 3, 4, 5, 6, 7) per_day
         ORDER BY 1, 2`,
        [...(await countedBindings(executor, workspaceId, range)), range.timeZone],
      );
      return rows.map((r) => ({
        day: r.day,
        tiktokEvent: r.tiktok_event,
        status: r.status,
        reason: r.reason,
        tiktokCode: r.tiktok_code,
        testMode: r.test_mode,
        sentWithoutClick: r.sent_without_click,
        conversions: Number(r.conversions),
        shareable: Number(r.shareable),
      }));
    },

    /**
     * Production conversions delivered without a click over whole days of a zone (`YYYY-MM-DD`, both inclusive): the
     * ad reports count only click-attributed ones, per entity, and name these apart. Hours as perDay counts them.
     */
    async deliveredWithoutClick(workspaceId: string, days: { from: string; to: string; timeZone: string }, executor: Knex = db): Promise<number> {
      const { rows: bounds } = await executor.raw<{ rows: { from: Date; to: Date }[] }>(
        'SELECT (?::date::timestamp AT TIME ZONE ?) AS "from", ((?::date + 1)::timestamp AT TIME ZONE ?) AS "to"',
        [days.from, days.timeZone, days.to, days.timeZone],
      );
      const range = bounds[0] as { from: Date; to: Date };
      const { rows } = await executor.raw<{ rows: { n: string | null }[] }>(
        `${COUNTED} SELECT sum(conversions)::text AS n FROM counted WHERE status = 'delivered' AND NOT test_mode AND sent_without_click`,
        await countedBindings(executor, workspaceId, range),
      );
      return Number(rows[0]?.n ?? 0);
    },

    /**
     * Per TikTok event: the newest production delivery, and how many in the 7 days before `now` (from the start of
     * that hour, as the hourly rollup counts). Counted from the rollup and the hours after it: counted from the
     * conversions, a week of a busy shop's deliveries was read on every overview (32,000 rows, 14 ms, at 40,000,000
     * stored events: issue 49).
     */
    async activity(workspaceId: string, tiktokEvents: readonly string[], now: Date, executor: Knex = db): Promise<TikTokEventActivity[]> {
      if (tiktokEvents.length === 0) return [];
      const week = { from: new Date(now.getTime() - 7 * 86_400_000), to: now };
      const { rows } = await executor.raw<{ rows: { tiktok_event: string; last_delivered_at: Date | null; delivered_7d: string }[] }>(
        `${COUNTED},
         delivered AS (SELECT tiktok_event, sum(conversions) AS n FROM counted WHERE status = 'delivered' AND NOT test_mode GROUP BY tiktok_event)
         SELECT e.tiktok_event,
                (SELECT c.event_time FROM conversions c
                 WHERE c.workspace_id = ? AND c.tiktok_event = e.tiktok_event AND c.status = 'delivered' AND NOT c.test_mode
                 ORDER BY c.event_time DESC LIMIT 1) AS last_delivered_at,
                coalesce((SELECT d.n FROM delivered d WHERE d.tiktok_event = e.tiktok_event), 0)::text AS delivered_7d
         FROM unnest(?::text[]) AS e(tiktok_event)`,
        [...(await countedBindings(executor, workspaceId, week)), workspaceId, [...new Set(tiktokEvents)]],
      );
      return rows.map((r) => ({ tiktokEvent: r.tiktok_event, lastDeliveredAt: r.last_delivered_at, deliveredLast7Days: Number(r.delivered_7d) }));
    },

    /**
     * Share of delivered production conversions carrying each match key: from `match_keys` where the pipeline
     * recorded them, else from the `user` object of the payload that was sent.
     */
    async matchKeyCoverage(workspaceId: string, range: { from: Date; to: Date }, executor: Knex = db): Promise<MatchKeyCoverage> {
      const { rows } = await executor.raw<{ rows: (Record<CoveredMatchKey, number> & { delivered: number; matched: number })[] }>(
        `SELECT count(*)::int AS delivered, ${KEY_COUNTS}, ${MATCHED_COUNT}
         FROM (SELECT ${CARRIED_KEYS} AS keys
               FROM conversions
               WHERE workspace_id = ? AND event_time >= ? AND event_time < ? AND status = 'delivered' AND NOT test_mode
               ORDER BY event_time DESC LIMIT ?) s`,
        [workspaceId, range.from, range.to, COVERAGE_SAMPLE],
      );
      const row = rows[0] as Record<CoveredMatchKey, number> & { delivered: number; matched: number };
      return { delivered: row.delivered, sampleLimit: COVERAGE_SAMPLE, withKey: keyCounts(row), matched: row.matched };
    },

    /**
     * Per TikTok event and source, the keys its newest delivered production conversions of the period carried (the
     * match quality score). Each source is its own constant, so that app, offline and CRM conversions are read
     * through `conversions_by_source` instead of among all the event's.
     */
    async matchKeysPerEvent(workspaceId: string, tiktokEvents: readonly string[], range: { from: Date; to: Date }, executor: Knex = db): Promise<EventMatchKeys[]> {
      if (tiktokEvents.length === 0) return [];
      const perSource = CONVERSION_SOURCES.map(
        (source) => `SELECT e.tiktok_event, '${source}' AS event_source, s.keys
         FROM unnest(?::text[]) AS e(tiktok_event)
         LEFT JOIN LATERAL (SELECT ${CARRIED_KEYS} AS keys
                            FROM conversions
                            WHERE workspace_id = ? AND event_source = '${source}' AND tiktok_event = e.tiktok_event AND event_time >= ? AND event_time < ?
                              AND status = 'delivered' AND NOT test_mode
                            ORDER BY event_time DESC LIMIT ?) s ON true`,
      );
      const { rows } = await executor.raw<{ rows: (Record<CoveredMatchKey, number> & { tiktok_event: string; event_source: TikTokEventSource; delivered: number })[] }>(
        `SELECT tiktok_event, event_source, count(keys)::int AS delivered, ${KEY_COUNTS.replaceAll('count(*)', 'count(keys)')}
         FROM (${perSource.join(' UNION ALL ')}) sampled
         GROUP BY tiktok_event, event_source ORDER BY tiktok_event, array_position(?::text[], event_source)`,
        [...CONVERSION_SOURCES.flatMap(() => [[...new Set(tiktokEvents)], workspaceId, range.from, range.to, COVERAGE_SAMPLE]), [...CONVERSION_SOURCES]],
      );
      return rows.map((row) => ({ tiktokEvent: row.tiktok_event, source: row.event_source, delivered: row.delivered, withKey: keyCounts(row) }));
    },

    /** The first delivered production conversion: the setup checklist's "first delivered conversion". */
    async firstDelivered(workspaceId: string, executor: Knex = db): Promise<{ eventTime: Date; tiktokEvent: string } | undefined> {
      const row = await executor('conversions')
        .where({ workspace_id: workspaceId, status: 'delivered' })
        .whereRaw('NOT test_mode')
        .orderBy('event_time')
        .first('event_time', 'tiktok_event');
      return row === undefined ? undefined : { eventTime: row.event_time, tiktokEvent: row.tiktok_event };
    },
  };
}

export type ConversionFigureRepository = ReturnType<typeof createConversionFigureRepository>;
