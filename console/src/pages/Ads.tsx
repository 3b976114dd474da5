import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { get } from '../api';
import { ErrorNote, Loading } from '../components/bits';
import { Chart } from '../components/Chart';
import { DataTable } from '../components/DataTable';
import { PeriodPicker, usePeriod } from '../components/Period';
import { dateTime, daysBetween, money, number } from '../format';
import { useTimeZone, useWorkspace } from '../session';

interface Figures {
  spend: string | null;
  impressions: number | null;
  clicks: number | null;
  cpc: string | null;
  ctr: string | null;
  conversions: number | null;
  conversionValue: string | null;
  roas: string | null;
  deliveredConversions: number;
  /** In the advertiser's currency when every currency could be converted, else null. */
  deliveredValue: string | null;
  /** Per currency, never summed across currencies. */
  deliveredValues?: Record<string, string>;
  cpm?: string | null;
  costPerConversion?: string | null;
}
interface Row extends Figures {
  level: 'campaign' | 'adgroup' | 'ad';
  date: string | null;
  entityId: string;
  name: string | null;
  status: string | null;
  campaignId: string | null;
  adgroupId: string | null;
}
interface Report {
  currency: string | null;
  timeZone: string;
  notes?: string[];
  rows: Row[];
  totals: Figures & { rows: number };
  statsPulledAt: string | null;
  statsPullError: string | null;
}

/** The delivered value in the advertiser's currency, else each currency apart. */
const deliveredText = (figures: Figures, currency: string | null) =>
  figures.deliveredValue !== null
    ? money(figures.deliveredValue, currency)
    : Object.entries(figures.deliveredValues ?? {})
        .map(([code, value]) => money(value, code))
        .join(' + ') || '–';

const ratio = (a: string | null, b: number | string | null, scale = 1) => (a === null || b === null || Number(b) === 0 ? null : (Number(a) / Number(b)) * scale);

export function AdsPage() {
  const { ws, base } = useWorkspace();
  const timeZone = useTimeZone();
  const [period] = usePeriod(timeZone);
  const [params] = useSearchParams();
  const campaignId = params.get('campaign');
  const adgroupId = params.get('adgroup');
  const level = adgroupId ? 'ad' : campaignId ? 'adgroup' : 'campaign';
  const query = new URLSearchParams({ level, from: period.from, to: period.to, ...(campaignId ? { campaignId } : {}) });
  const report = useQuery({ queryKey: ['ads', ws, query.toString()], queryFn: () => get<Report>(`${base}/ads/report?${query.toString()}`) });
  const daily = useQuery({
    queryKey: ['ads-daily', ws, period.from, period.to, campaignId],
    queryFn: () => get<Report>(`${base}/ads/report?${new URLSearchParams({ level: 'campaign', granularity: 'day', from: period.from, to: period.to, ...(campaignId ? { campaignId } : {}) }).toString()}`),
  });
  const days = useMemo(() => daysBetween(period.from, period.to), [period.from, period.to]);
  const series = useMemo(() => {
    const spend = new Map<string, number>();
    const value = new Map<string, number>();
    for (const row of daily.data?.rows ?? []) {
      if (row.date === null) continue;
      spend.set(row.date, (spend.get(row.date) ?? 0) + Number(row.spend ?? 0));
      value.set(row.date, (value.get(row.date) ?? 0) + Number(row.conversionValue ?? 0));
    }
    return [
      { label: 'spend', color: '#0969da', values: days.map((d) => spend.get(d) ?? 0), bars: true },
      { label: 'ROAS', color: '#1a7f37', scale: 'y2' as const, values: days.map((d) => ((spend.get(d) ?? 0) > 0 ? (value.get(d) ?? 0) / (spend.get(d) as number) : null)) },
    ];
  }, [daily.data, days]);
  const currency = report.data?.currency ?? null;
  const rows = (report.data?.rows ?? []).filter((r) => adgroupId === null || r.adgroupId === adgroupId);
  const drill = (row: Row) =>
    row.level === 'campaign' ? `?campaign=${row.entityId}&${period.from ? `from=${period.from}&to=${period.to}` : ''}` : row.level === 'adgroup' ? `?campaign=${campaignId}&adgroup=${row.entityId}&from=${period.from}&to=${period.to}` : null;
  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: level === 'campaign' ? 'Campaign' : level === 'adgroup' ? 'Ad group' : 'Ad',
      accessorKey: 'name',
      cell: (c) => {
        const link = drill(c.row.original);
        const label = c.row.original.name ?? c.row.original.entityId;
        return link ? <Link to={link}>{label}</Link> : label;
      },
    },
    { header: 'Spend', accessorKey: 'spend', cell: (c) => money(c.row.original.spend, currency) },
    { header: 'Impr.', accessorKey: 'impressions', cell: (c) => number(c.row.original.impressions) },
    { header: 'Clicks', accessorKey: 'clicks', cell: (c) => number(c.row.original.clicks) },
    { header: 'CPC', accessorKey: 'cpc', cell: (c) => money(c.row.original.cpc) },
    { header: 'CPM', id: 'cpm', cell: (c) => money(c.row.original.cpm ?? ratio(c.row.original.spend, c.row.original.impressions, 1000)) },
    { header: 'CTR', accessorKey: 'ctr', cell: (c) => (c.row.original.ctr === null ? '–' : `${c.row.original.ctr}%`) },
    { header: 'TikTok conv.', accessorKey: 'conversions', cell: (c) => number(c.row.original.conversions) },
    { header: 'Cost / conv.', id: 'cpa', cell: (c) => money(c.row.original.costPerConversion ?? ratio(c.row.original.spend, c.row.original.conversions)) },
    { header: 'Value', accessorKey: 'conversionValue', cell: (c) => money(c.row.original.conversionValue, currency) },
    { header: 'ROAS', accessorKey: 'roas', cell: (c) => c.row.original.roas ?? '–' },
    { header: 'Signalbox delivered', accessorKey: 'deliveredConversions', cell: (c) => number(c.row.original.deliveredConversions) },
    { header: 'Delivered value', accessorKey: 'deliveredValue', cell: (c) => deliveredText(c.row.original, currency) },
  ];
  return (
    <>
      <h1>Ad performance</h1>
      <PeriodPicker timeZone={timeZone} />
      <nav aria-label="Drill-down" className="crumbs">
        <Link to={`?from=${period.from}&to=${period.to}`}>All campaigns</Link>
        {campaignId && (
          <>
            {' › '}
            <Link to={`?campaign=${campaignId}&from=${period.from}&to=${period.to}`}>campaign {campaignId}</Link>
          </>
        )}
        {adgroupId && <> › ad group {adgroupId}</>}
      </nav>
      {report.isPending && <Loading what="ad statistics" />}
      {report.isError && <ErrorNote error={report.error} />}
      {report.data && (
        <>
          <p className="muted">
            TikTok's figures, pulled {dateTime(report.data.statsPulledAt)}
            {report.data.statsPullError ? ` (last pull failed: ${report.data.statsPullError})` : ''}, beside the conversions Signalbox delivered for the same ad and day. Money is shown per currency, never summed across
            currencies.{currency ? ` Money in ${currency}; days in ${report.data.timeZone}.` : ''}
          </p>
          {report.data.notes?.map((note) => (
            <p key={note} className="notice">
              {note}
            </p>
          ))}
          <Chart days={days} series={series} title="Spend (bars) and ROAS (line, right axis) per day" rightAxisLabel="ROAS" />
          <DataTable rows={rows} columns={columns} empty="No statistics for this period yet: they are pulled hourly once an advertiser is selected under Sources." />
          <p>
            <a className="button small" href={`/console/api/${base}/ads/report.csv?${query.toString()}`} download>
              Export CSV
            </a>
          </p>
        </>
      )}
    </>
  );
}
