import type { Command } from 'commander';
import type { AdFigures, AdReport } from '../../contract/ad-report';
import { count, money, percent, ratio } from '../figures';
import { formatTable, type Cell } from '../output';
import { act, type CliIo } from '../session';

interface ReportFlags {
  level: string;
  from: string;
  to: string;
  daily?: boolean;
  campaign?: string;
  limit?: string;
  offset?: string;
}

const LEVEL_NAMES: Record<AdReport['level'], string> = { campaign: 'campaign', adgroup: 'ad group', ad: 'ad' };

/** Each currency's delivered value, never added together: `EUR 100.00 · USD 100.00`. */
function deliveredValueText(f: AdFigures, currency: string | null): string {
  if (f.deliveredValue !== null) return money(f.deliveredValue);
  const perCurrency = Object.entries(f.deliveredValues).sort(([a], [b]) => (a < b ? -1 : 1));
  if (perCurrency.length === 1 && perCurrency[0]?.[0] === currency) return money(perCurrency[0][1]);
  return perCurrency.length === 0 ? '-' : perCurrency.map(([code, value]) => `${code} ${money(value)}`).join(' · ');
}

const figureCells = (f: AdFigures, currency: string | null): Cell[] => [
  money(f.spend),
  count(f.impressions),
  count(f.clicks),
  money(f.cpc),
  percent(f.ctr),
  money(f.cpm),
  count(f.conversions),
  money(f.costPerConversion),
  percent(f.conversionRate),
  money(f.conversionValue),
  ratio(f.roas),
  count(f.deliveredConversions),
  deliveredValueText(f, currency),
];

const FIGURE_HEADERS = ['spend', 'impressions', 'clicks', 'cpc', 'ctr', 'cpm', 'conversions', 'cost/conv', 'conv rate', 'value', 'roas', 'delivered', 'delivered value'];

/** The figures as a table: one row per entity (and day with --daily), then the totals of the whole query. */
export function reportText(report: AdReport, workspaceId: string, offset: number): string {
  const daily = report.granularity === 'day';
  const leading = daily ? ['date', LEVEL_NAMES[report.level], 'name', 'status'] : [LEVEL_NAMES[report.level], 'name', 'status'];
  const rows: Cell[][] = report.rows.map((row) => [...(daily ? [row.date] : []), row.entityId, row.name, row.statusLabel ?? row.status, ...figureCells(row, report.currency)]);
  // A space, not '': empty cells print as '-', which would read as a missing figure.
  rows.push([...(daily ? [' '] : []), 'TOTAL', `${report.totals.rows} rows`, ' ', ...figureCells(report.totals, report.currency)]);
  const rightAligned = FIGURE_HEADERS.map((_, index) => leading.length + index);

  const lines = [
    `TikTok advertiser ${report.advertiserId}, ${LEVEL_NAMES[report.level]} level, ${report.from} to ${report.to}${daily ? ', per day' : ''}`,
    `Money in ${report.currency ?? 'the advertiser\'s currency (not reported yet)'}; days in ${report.timeZone}, on TikTok's side and Signalbox's.`,
    report.statsPulledAt === null ? `Statistics not pulled yet: signalbox tiktok pull ${workspaceId}` : `Statistics pulled at ${report.statsPulledAt}`,
    ...(report.statsPullError === null ? [] : [`Last pull failed: ${report.statsPullError}`]),
    'CTR and conv rate in percent; value = web and app purchases; "delivered" = conversions Signalbox sent to TikTok for that entity, and "delivered value" their orders\' value, an order sent as several TikTok events once; "-" = no figure.',
    ...report.notes.map((note) => `Note: ${note}`),
    ...(report.totals.rows > 0 && report.totals.deliveredConversions === 0
      ? [`Note: 0 delivered everywhere? Every ad's landing page URL needs the closed-loop parameters: signalbox tiktok url-parameters ${workspaceId}`]
      : []),
    '',
    formatTable([...leading, ...FIGURE_HEADERS], rows, { rightAligned }),
  ];
  const shownUpTo = offset + report.rows.length;
  if (shownUpTo < report.totals.rows) lines.push('', `Rows ${offset + 1}–${shownUpTo} of ${report.totals.rows}: add --offset ${shownUpTo} for more.`);
  return lines.join('\n');
}

export function registerReportCommands(program: Command, io: CliIo): void {
  program
    .command('reports <workspaceId>')
    .description("TikTok ad performance per campaign, ad group or ad, beside the conversions Signalbox delivered (days and money are the advertiser's)")
    .option('--level <level>', 'campaign, adgroup or ad', 'campaign')
    .requiredOption('--from <date>', 'first day, YYYY-MM-DD')
    .requiredOption('--to <date>', 'last day (inclusive), YYYY-MM-DD')
    .option('--daily', 'a row per day instead of totals over the range')
    .option('--campaign <campaignId>', "only this campaign's rows")
    .option('--limit <n>', 'rows per page (1-10000, default 500)')
    .option('--offset <n>', 'rows to skip')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: ReportFlags) => {
        const report = await request<AdReport>('GET', `/admin/workspaces/${encodeURIComponent(workspaceId)}/tiktok/reports`, {
          query: {
            level: flags.level,
            from: flags.from,
            to: flags.to,
            granularity: flags.daily ? 'day' : undefined,
            campaignId: flags.campaign,
            limit: flags.limit,
            offset: flags.offset,
          },
        });
        print(report, (value) => reportText(value, workspaceId, Number(flags.offset ?? 0)));
      }, {
        level: '--level',
        from: '--from',
        to: '--to',
        granularity: '--daily',
        campaignId: '--campaign',
        timeZone: '--time-zone',
        limit: '--limit',
        offset: '--offset',
      }),
    );
}
