import type { ColumnDef } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { money, number } from '../../format';
import { SignalboxRoas, TikTokRoas } from './Roas';
import type { AdFigures, AdReportRow } from '../../../../contract/ad-report';

/** The delivered value in the advertiser's currency, else each currency apart. */
const deliveredText = (figures: AdFigures) =>
  figures.deliveredValue !== null
    ? money(figures.deliveredValue)
    : Object.entries(figures.deliveredValues)
        .map(([code, value]) => money(value, code))
        .join(' + ') || '–';

const LEVEL_NAMES = { campaign: 'Campaign', adgroup: 'Ad group', ad: 'Ad' } as const;

/**
 * TikTok's figures, then Signalbox's: money without its currency in every cell (the headers name it), so that the
 * table fits a laptop's width; on a phone each row is a card. The footer holds the totals of every row (ratios from the
 * sums, as the server computes them).
 */
export function adColumns(level: AdReportRow['level'], currency: string | null, drill: (row: AdReportRow) => string | null, totals?: AdFigures): ColumnDef<AdReportRow, unknown>[] {
  const inCurrency = currency ? ` (${currency})` : '';
  const figure = (header: string, id: string, cell: (figures: AdFigures) => ReactNode): ColumnDef<AdReportRow, unknown> => ({
    header,
    id,
    cell: (c) => cell(c.row.original),
    ...(totals ? { footer: () => cell(totals) } : {}),
    meta: { numeric: true },
  });
  return [
    {
      header: LEVEL_NAMES[level],
      id: 'name',
      cell: (c) => {
        const link = drill(c.row.original);
        const label = c.row.original.name ?? c.row.original.entityId;
        return link ? <Link to={link}>{label}</Link> : label;
      },
      ...(totals ? { footer: () => 'Total' } : {}),
    },
    { header: 'Status', id: 'status', cell: (c) => c.row.original.statusLabel ?? '–', ...(totals ? { footer: () => '' } : {}) },
    {
      header: 'TikTok',
      id: 'tiktok',
      columns: [
        figure(`Spend${inCurrency}`, 'spend', (r) => money(r.spend)),
        figure('Impr.', 'impressions', (r) => number(r.impressions)),
        figure('Clicks', 'clicks', (r) => number(r.clicks)),
        figure('CPC', 'cpc', (r) => money(r.cpc)),
        figure('CTR', 'ctr', (r) => (r.ctr === null ? '–' : `${Number(r.ctr).toFixed(2)}%`)),
        figure('Conv.', 'conversions', (r) => number(r.conversions)),
        figure('Cost / conv.', 'cpa', (r) => money(r.costPerConversion)),
        figure(`Value${inCurrency}`, 'value', (r) => money(r.conversionValue)),
        figure('TikTok ROAS', 'roas', (r) => <TikTokRoas figures={r} />),
      ],
    },
    {
      header: 'Signalbox',
      id: 'signalbox',
      columns: [
        figure('Delivered', 'delivered', (r) => number(r.deliveredConversions)),
        figure(`Delivered value${inCurrency}`, 'deliveredValue', (r) => deliveredText(r)),
        figure('Signalbox ROAS', 'deliveredRoas', (r) => <SignalboxRoas figures={r} />),
      ],
    },
  ];
}
