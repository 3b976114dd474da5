import type { Knex } from 'knex';
import type { TikTokEventSource } from '../../domain/tiktok-wire';
import { RECOMMENDED_PARAMETERS, recommendsParameters, type RecommendedParameter } from '../../domain/recommended-parameters';
import { CONVERSION_SOURCES } from './conversion-figures';
import { sameShopifyOrderSql } from './order-repeats';

/** One TikTok event's conversions of a period, as TikTok Events Manager's diagnostics count them. */
export interface EventDiagnostics {
  tiktokEvent: string;
  /** Conversions made for this TikTok event (events a rule mapped to it), whatever became of them. */
  received: number;
  delivered: number;
  /** Of those delivered, in test mode (TikTok's Test Events view only). */
  deliveredInTestMode: number;
  /** Not finished yet. */
  pending: number;
  /** Not sent (e.g. no click inside the window), or sent and refused, or failed before TikTok answered. */
  skipped: number;
  failed: number;
  /** Of those failed, sent and refused by TikTok (`tiktok_rejected`). */
  refused: number;
  /** Conversions whose request to TikTok was built: what the missing parameters are counted of. */
  built: number;
  /** Of those built, how many lacked each recommended parameter; null for events without recommended parameters. */
  missing: Record<RecommendedParameter, number> | null;
  /** Of those built, how many lacked at least one. */
  missingAny: number;
  /** Conversions whose order ID or event ID came again in later events (no second conversion was made). */
  repeated: number;
  /** Those later events. */
  repeats: number;
  /** Delivered with no click inside the attribution window (no ttclid): TikTok matched them on other keys. */
  deliveredWithoutClick: number;
}

/** TikTok's refusals of one event with one code: how many, and the latest as an example. */
export interface RefusalGroup {
  tiktokEvent: string;
  tiktokCode: number | null;
  conversions: number;
  example: { conversionId: string; eventId: string; message: string | null };
}

/** What became of the period's conversions of one source (website, app, offline, CRM). */
export interface SourceDiagnostics {
  source: TikTokEventSource;
  received: number;
  delivered: number;
  pending: number;
  skipped: number;
  failed: number;
}

export interface Diagnostics {
  events: EventDiagnostics[];
  /** The sources the period's conversions came from, the busiest first. */
  sources: SourceDiagnostics[];
  refusals: RefusalGroup[];
}

const PROPERTIES = (alias: string) => `${alias}.request_payload->'data'->0->'properties'`;

/**
 * A built request that lacks a recommended parameter (`contents`: neither `contents` nor its alternative
 * `content_ids`, reference §1.4). Shared with the Conversions page's filter, so a figure and its list agree.
 */
export function missingParameterSql(parameter: RecommendedParameter, alias: string): string {
  const properties = PROPERTIES(alias);
  const absent = parameter === 'contents' ? `${properties}->'contents' IS NULL AND ${properties}->'content_ids' IS NULL` : `${properties}->'${parameter}' IS NULL`;
  return `(${alias}.request_payload IS NOT NULL AND ${absent})`;
}

/**
 * A conversion some later event repeated (index `events_duplicate_of`), but for the same Shopify order's other topic;
 * shared with the Conversions page's filter.
 */
function repeatedSql(alias: string): string {
  return `EXISTS (SELECT 1 FROM events repeat WHERE repeat.duplicate_of_conversion_id = ${alias}.id AND NOT ${sameShopifyOrderSql('repeat', alias)})`;
}

/** The Conversions page's filters that a diagnostics figure links with, beside status, reason, event and period. */
export interface DiagnosticFilter {
  /** Where they happened (website, app, offline, CRM). */
  source?: TikTokEventSource;
  tiktokCode?: number;
  missing?: RecommendedParameter;
  repeated?: boolean;
  withoutClick?: boolean;
}

/** Narrows a query of conversions (`alias`) as a diagnostics figure counts them. */
export function whereDiagnostic(builder: Knex.QueryBuilder, alias: string, filter: DiagnosticFilter): void {
  if (filter.source !== undefined) void builder.where(`${alias}.event_source`, filter.source);
  if (filter.tiktokCode !== undefined) void builder.where(`${alias}.tiktok_code`, filter.tiktokCode);
  if (filter.missing !== undefined) void builder.whereRaw(missingParameterSql(filter.missing, alias));
  if (filter.repeated) void builder.whereRaw(repeatedSql(alias));
  if (filter.withoutClick) void builder.where(`${alias}.sent_without_click`, true);
}

/**
 * The period's conversions, of one source when `bySource` (bindings: workspace, from, to, then the source): through
 * `conversions_by_event_time`, or `conversions_by_source` for a source other than the website.
 */
const inPeriod = (bySource: boolean) => `c.workspace_id = ? AND c.event_time >= ? AND c.event_time < ?${bySource ? ' AND c.event_source = ?' : ''}`;

/** Bindings as `inPeriod`'s. The period's conversions in one pass. */
export const eventFiguresSql = (bySource = false) => `
  SELECT tiktok_event, event_source, count(*)::int AS received,
    count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
    count(*) FILTER (WHERE status = 'delivered' AND test_mode)::int AS delivered_in_test_mode,
    count(*) FILTER (WHERE status = 'pending')::int AS pending,
    count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
    count(*) FILTER (WHERE status = 'failed')::int AS failed,
    count(*) FILTER (WHERE status = 'failed' AND reason = 'tiktok_rejected')::int AS refused,
    count(*) FILTER (WHERE request_payload IS NOT NULL)::int AS built,
    ${RECOMMENDED_PARAMETERS.map((p) => `count(*) FILTER (WHERE ${missingParameterSql(p, 'c')})::int AS missing_${p}`).join(',\n    ')},
    count(*) FILTER (WHERE ${RECOMMENDED_PARAMETERS.map((p) => missingParameterSql(p, 'c')).join(' OR ')})::int AS missing_any,
    count(*) FILTER (WHERE status = 'delivered' AND sent_without_click)::int AS delivered_without_click
  FROM conversions c
  WHERE ${inPeriod(bySource)}
  GROUP BY tiktok_event, event_source`;

/**
 * Bindings as `inPeriod`'s. Each of the period's conversions probes the partial index of repeats
 * (`events_duplicate_of`) on its own: a join would let PostgreSQL hash every repeat of every workspace instead.
 */
export const repeatsSql = (bySource = false) => `
  SELECT c.tiktok_event, count(*)::int AS repeated, sum(r.repeats)::int AS repeats
  FROM conversions c CROSS JOIN LATERAL (SELECT count(*) AS repeats FROM events e WHERE e.duplicate_of_conversion_id = c.id AND NOT ${sameShopifyOrderSql('e', 'c')}) r
  WHERE ${inPeriod(bySource)} AND r.repeats > 0
  GROUP BY c.tiktok_event`;

/**
 * Bindings as `inPeriod`'s. The refused ones per event and code, each group with its latest conversion: the period's
 * range of `conversions_by_reason`, where only the conversions with a reason are.
 */
export const refusalsSql = (bySource = false) => `
  SELECT DISTINCT ON (tiktok_event, tiktok_code) tiktok_event, tiktok_code,
    count(*) OVER (PARTITION BY tiktok_event, tiktok_code)::int AS conversions, id, event_id, tiktok_message
  FROM conversions c
  WHERE ${inPeriod(bySource)} AND c.status = 'failed' AND c.reason = 'tiktok_rejected'
  ORDER BY tiktok_event, tiktok_code, event_time DESC, id DESC`;

interface FigureCounts {
  received: number;
  delivered: number;
  delivered_in_test_mode: number;
  pending: number;
  skipped: number;
  failed: number;
  refused: number;
  built: number;
  missing_value: number;
  missing_currency: number;
  missing_contents: number;
  missing_any: number;
  delivered_without_click: number;
}

type FigureRow = FigureCounts & { tiktok_event: string; event_source: TikTokEventSource };

function summed(sum: FigureCounts | undefined, row: FigureRow): FigureCounts {
  const { tiktok_event: _event, event_source: _source, ...counts } = row;
  if (sum === undefined) return counts;
  return Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, n + sum[name as keyof FigureCounts]])) as unknown as FigureCounts;
}

/**
 * Per-event diagnostics of a workspace's conversions whose event happened in [from, to) (of one source when given): what Signalbox stored and
 * what TikTok answered, read from the conversions and the events that repeated them, never from all the events.
 */
export function createDiagnosticsRepository(db: Knex) {
  return {
    async diagnose(workspaceId: string, period: { from: Date; to: Date; source?: TikTokEventSource }, executor: Knex = db): Promise<Diagnostics> {
      const bySource = period.source !== undefined;
      const bindings = [workspaceId, period.from, period.to, ...(bySource ? [period.source as string] : [])];
      const [figures, repeats, refusals] = await Promise.all([
        executor.raw<{ rows: FigureRow[] }>(eventFiguresSql(bySource), bindings),
        executor.raw<{ rows: { tiktok_event: string; repeated: number; repeats: number }[] }>(repeatsSql(bySource), bindings),
        executor.raw<{ rows: { tiktok_event: string; tiktok_code: number | null; conversions: number; id: string; event_id: string; tiktok_message: string | null }[] }>(refusalsSql(bySource), bindings),
      ]);
      const repeatsOf = new Map(repeats.rows.map((row) => [row.tiktok_event, row]));
      const byEvent = new Map<string, FigureCounts>();
      const bySourceName = new Map<TikTokEventSource, FigureCounts>();
      for (const row of figures.rows) {
        byEvent.set(row.tiktok_event, summed(byEvent.get(row.tiktok_event), row));
        bySourceName.set(row.event_source, summed(bySourceName.get(row.event_source), row));
      }
      const events = [...byEvent].map(([tiktokEvent, row]): EventDiagnostics => {
        const recommended = recommendsParameters(tiktokEvent);
        return {
          tiktokEvent,
          received: row.received,
          delivered: row.delivered,
          deliveredInTestMode: row.delivered_in_test_mode,
          pending: row.pending,
          skipped: row.skipped,
          failed: row.failed,
          refused: row.refused,
          built: row.built,
          missing: recommended ? { value: row.missing_value, currency: row.missing_currency, contents: row.missing_contents } : null,
          missingAny: recommended ? row.missing_any : 0,
          repeated: repeatsOf.get(tiktokEvent)?.repeated ?? 0,
          repeats: repeatsOf.get(tiktokEvent)?.repeats ?? 0,
          deliveredWithoutClick: row.delivered_without_click,
        };
      });
      return {
        events,
        sources: [...bySourceName]
          .map(([source, row]) => ({ source, received: row.received, delivered: row.delivered, pending: row.pending, skipped: row.skipped, failed: row.failed }))
          .sort((a, b) => b.received - a.received || CONVERSION_SOURCES.indexOf(a.source) - CONVERSION_SOURCES.indexOf(b.source)),
        refusals: refusals.rows
          .map((row) => ({ tiktokEvent: row.tiktok_event, tiktokCode: row.tiktok_code, conversions: row.conversions, example: { conversionId: row.id, eventId: row.event_id, message: row.tiktok_message } }))
          .sort((a, b) => b.conversions - a.conversions),
      };
    },
  };
}

export type DiagnosticsRepository = ReturnType<typeof createDiagnosticsRepository>;
