import type { TikTokDataLevel, TikTokReportRow } from '../tiktok';
import type { AdEntityInput, DailyStatInput } from '../../db/repositories/ad-stats';
import type { AdLevel } from '../../db/types';
import { addDecimals, parseCountMetric, parseDecimalMetric } from '../../domain/ad-metrics';

/** What Signalbox asks TikTok for at each level (§7.1, §7.3). */
export interface LevelSpec {
  dataLevel: TikTokDataLevel;
  idDimension: 'campaign_id' | 'adgroup_id' | 'ad_id';
  nameMetric: 'campaign_name' | 'adgroup_name' | 'ad_name';
  /** Attribute metrics that tie a row to its parents, so deleted entities still roll up. */
  parentMetrics: readonly ('campaign_id' | 'adgroup_id')[];
}

export const LEVELS: Record<AdLevel, LevelSpec> = {
  campaign: { dataLevel: 'AUCTION_CAMPAIGN', idDimension: 'campaign_id', nameMetric: 'campaign_name', parentMetrics: [] },
  adgroup: { dataLevel: 'AUCTION_ADGROUP', idDimension: 'adgroup_id', nameMetric: 'adgroup_name', parentMetrics: ['campaign_id'] },
  ad: { dataLevel: 'AUCTION_AD', idDimension: 'ad_id', nameMetric: 'ad_name', parentMetrics: ['campaign_id', 'adgroup_id'] },
};

/**
 * Delivery and purchase metrics: `conversion` counts the ad group's optimization event; `total_complete_payment_rate`
 * is, despite its name, the total value of web purchases (CompletePayment), and `total_purchase_value` the value of
 * in-app purchases (§7.3 "App purchase" [V1] GO): their sum is the conversion value, so app campaigns have one too.
 * CPC, CTR, CPM, cost per conversion, conversion rate and ROAS are computed from these sums, so that totals over days
 * and entities stay right.
 */
export const FIGURE_METRICS = ['spend', 'impressions', 'clicks', 'conversion', 'total_complete_payment_rate', 'total_purchase_value'] as const;

export function metricsFor(level: AdLevel): string[] {
  const spec = LEVELS[level];
  return [...FIGURE_METRICS, spec.nameMetric, ...spec.parentMetrics];
}

export class ReportRowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportRowError';
  }
}

function idOf(value: unknown, field: string): string {
  // Older TikTok examples send IDs as JSON numbers; our client keeps those above 2^53 as strings.
  const text = typeof value === 'number' ? BigInt(value).toString() : value;
  if (typeof text !== 'string' || !/^\d+$/.test(text)) throw new ReportRowError(`report row: ${field} ${JSON.stringify(value)} is not an ID`);
  return text;
}

function optionalId(value: unknown, field: string): string | null {
  return value === undefined || value === null || value === '' || value === '-' ? null : idOf(value, field);
}

function dayOf(value: unknown): string {
  const text = typeof value === 'string' ? value.slice(0, 10) : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new ReportRowError(`report row: stat_time_day ${JSON.stringify(value)} is not "YYYY-MM-DD 00:00:00"`);
  return text;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value !== '-' ? value : null;
}

export interface ParsedReportPage {
  stats: DailyStatInput[];
  /** The names the rows carried: one per run of consecutive rows of an entity, from its last row. */
  entities: AdEntityInput[];
}

/** One report page as rows to store: IDs stay strings, money exact decimals, counts integers, `"-"` null. */
export function parseReportRows(level: AdLevel, advertiserId: string, rows: readonly TikTokReportRow[]): ParsedReportPage {
  const spec = LEVELS[level];
  const stats: DailyStatInput[] = [];
  const entities: AdEntityInput[] = [];
  for (const row of rows) {
    const entityId = idOf(row.dimensions[spec.idDimension], spec.idDimension);
    const m = row.metrics;
    const campaignId = level === 'campaign' ? entityId : optionalId(m.campaign_id, 'campaign_id');
    if (campaignId === null) throw new ReportRowError(`report row for ${level} ${entityId}: campaign_id is missing`);
    const adgroupId = level === 'adgroup' ? entityId : level === 'ad' ? optionalId(m.adgroup_id, 'adgroup_id') : null;
    stats.push({
      level,
      entityId,
      statDate: dayOf(row.dimensions.stat_time_day),
      advertiserId,
      campaignId,
      adgroupId,
      spend: parseDecimalMetric('spend', m.spend),
      impressions: parseCountMetric('impressions', m.impressions),
      clicks: parseCountMetric('clicks', m.clicks),
      conversions: parseCountMetric('conversion', m.conversion),
      conversionValue: addDecimals(
        parseDecimalMetric('total_complete_payment_rate', m.total_complete_payment_rate),
        parseDecimalMetric('total_purchase_value', m.total_purchase_value),
      ),
    });
    const entity = { level, entityId, advertiserId, campaignId: level === 'campaign' ? null : campaignId, adgroupId: level === 'ad' ? adgroupId : null, name: text(m[spec.nameMetric]), status: null };
    // An entity's days come one after another: keep one entry per run, its last row's (as the store would).
    if (entities[entities.length - 1]?.entityId === entityId) entities[entities.length - 1] = entity;
    else entities.push(entity);
  }
  return { stats, entities };
}
