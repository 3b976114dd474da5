import { shownIds, type AdReportExportRow } from '../../db/repositories/ad-report';
import type { AdLevel } from '../../db/types';
import { csvLine, decimal } from '../http/csv';

/** The export's header, in words a spreadsheet's reader knows: names before IDs, TikTok's figures, then Signalbox's. */
export const AD_REPORT_CSV_HEADER = csvLine([
  'Date', 'Level', 'Name', 'ID', 'Campaign ID', 'Ad group ID', 'Spend', 'Impressions', 'Clicks', 'CPC', 'CTR (%)',
  'Conversions (TikTok)', 'Conversion value (TikTok)', 'ROAS (TikTok)', 'Delivered conversions (Signalbox)', 'Delivered value (Signalbox)', 'ROAS (Signalbox)',
]);

/** The Level column's words. */
const LEVEL_WORDS: Record<AdLevel, string> = { campaign: 'campaign', adgroup: 'ad group', ad: 'ad' };

/**
 * A row under the header: names and IDs (TikTok's, so anyone who edits the ad account writes them) as text, figures
 * (counts included) as the numbers PostgreSQL wrote.
 */
export function adReportCsvLine(level: AdLevel, row: AdReportExportRow): string {
  const { campaignId, adgroupId } = shownIds(level, row);
  return csvLine([
    row.stat_date, LEVEL_WORDS[level], row.name, row.entity_id, campaignId, adgroupId,
    decimal(row.spend), decimal(row.impressions), decimal(row.clicks), decimal(row.cpc), decimal(row.ctr),
    decimal(row.conversions), decimal(row.conversion_value), decimal(row.roas), decimal(row.delivered_conversions), decimal(row.delivered_value), decimal(row.delivered_roas),
  ]);
}
