import type { AdReportRow } from '../../db/repositories/ad-report';
import type { AdLevel } from '../../db/types';
import { csvLine, decimal } from '../http/csv';

/** The export's header, in words a spreadsheet's reader knows: names before IDs, TikTok's figures, then Signalbox's. */
export const AD_REPORT_CSV_HEADER = csvLine([
  'Date', 'Level', 'Name', 'ID', 'Campaign ID', 'Ad group ID', 'Spend', 'Impressions', 'Clicks', 'CPC', 'CTR (%)',
  'Conversions (TikTok)', 'Conversion value (TikTok)', 'ROAS (TikTok)', 'Delivered conversions (Signalbox)', 'Delivered value (Signalbox)', 'ROAS (Signalbox)',
]);

/** The Level column's words. */
const LEVEL_WORDS: Record<AdLevel, string> = { campaign: 'campaign', adgroup: 'ad group', ad: 'ad' };

/** A row under the header: names and IDs (TikTok's, so anyone who edits the ad account writes them) as text, figures as numbers. */
export const adReportCsvLine = (row: AdReportRow): string =>
  csvLine([
    row.date, LEVEL_WORDS[row.level], row.name, row.entityId, row.campaignId, row.adgroupId,
    decimal(row.spend), row.impressions, row.clicks, decimal(row.cpc), decimal(row.ctr),
    row.conversions, decimal(row.conversionValue), decimal(row.roas), row.deliveredConversions, decimal(row.deliveredValue), decimal(row.deliveredRoas),
  ]);
