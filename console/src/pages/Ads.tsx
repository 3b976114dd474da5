import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { get } from '../api';
import { ErrorNote, Loading, Words } from '../components/bits';
import { notify } from '../components/Toasts';
import { Chart } from '../components/Chart';
import { DataTable } from '../components/DataTable';
import { PeriodPicker, usePeriod } from '../components/Period';
import { dateTime, daysBetween } from '../format';
import { useTimeZone, useWorkspace, whyNot } from '../session';
import { adColumns } from './ads/columns';
import { NotConnected } from './ads/NotConnected';
import { PullNow } from './ads/PullNow';
import { NO_SIGNALBOX_ROAS, NO_TIKTOK_ROAS } from './ads/Roas';
import type { AdReport, AdReportRow, NamedEntity } from '../../../contract/ad-report';
import { pullOutcome, pullStart, WATCH_EVERY_MS, type PullStart } from './ads/pull-outcome';

const nameOf = (entity: NamedEntity | null | undefined, fallback: string) => entity?.name ?? fallback;

export function AdsPage() {
  const { ws, base, data: workspace } = useWorkspace();
  const timeZone = useTimeZone();
  const queries = useQueryClient();
  const [period] = usePeriod(timeZone);
  const [params] = useSearchParams();
  const campaignId = params.get('campaign');
  const adgroupId = campaignId ? params.get('adgroup') : null;
  const level = adgroupId ? 'ad' : campaignId ? 'adgroup' : 'campaign';
  const query = new URLSearchParams({ level, from: period.from, to: period.to, ...(campaignId ? { campaignId } : {}), ...(adgroupId ? { adgroupId } : {}) });
  // Statistics are pulled per advertiser: without one there is no report to ask for.
  const hasAdvertiser = workspace?.tiktok?.advertiserId != null;
  // Set by "Pull now": the report is then asked for again until the pull is over, and its notice stays until then.
  const [pulling, setPulling] = useState<(PullStart & { closeNotice: () => void }) | null>(null);
  const report = useQuery({
    queryKey: ['ads', ws, query.toString()],
    queryFn: () => get<AdReport>(`${base}/ads/report?${query.toString()}`),
    refetchInterval: pulling ? WATCH_EVERY_MS : false,
    enabled: hasAdvertiser,
  });
  useEffect(() => {
    const outcome = pulling && report.data ? pullOutcome(pulling, report.data) : undefined;
    if (outcome === undefined || pulling === null) return;
    pulling.closeNotice();
    notify(outcome.message);
    if (outcome.arrived) void queries.invalidateQueries({ queryKey: ['ads-daily', ws] });
    setPulling(null);
  }, [pulling, report.data, queries, ws]);
  // Leaving the page while a pull runs takes its notice away too.
  useEffect(() => () => pulling?.closeNotice(), [pulling]);
  // The chart covers what the table does: the ad group's ads summed per day, else the campaigns (one, or all).
  const dailyQuery = new URLSearchParams({ level: adgroupId ? 'ad' : 'campaign', granularity: 'day', from: period.from, to: period.to, ...(campaignId ? { campaignId } : {}), ...(adgroupId ? { adgroupId } : {}) });
  const daily = useQuery({
    queryKey: ['ads-daily', ws, dailyQuery.toString()],
    queryFn: () => get<AdReport>(`${base}/ads/report?${dailyQuery.toString()}`),
    enabled: hasAdvertiser,
  });
  const days = useMemo(() => daysBetween(period.from, period.to), [period.from, period.to]);
  const series = useMemo(() => {
    const spend = new Map<string, number>();
    const value = new Map<string, number>();
    const conversions = new Map<string, number>();
    const add = (sums: Map<string, number>, day: string, figure: string | number | null) => sums.set(day, (sums.get(day) ?? 0) + Number(figure ?? 0));
    for (const row of daily.data?.rows ?? []) {
      if (row.date === null) continue;
      add(spend, row.date, row.spend);
      add(value, row.date, row.conversionValue);
      add(conversions, row.date, row.conversions);
    }
    // As in the table: no ROAS on a day TikTok credited with no conversion (its 0 would read as a loss).
    const roas = (day: string) => ((spend.get(day) ?? 0) > 0 && (conversions.get(day) ?? 0) > 0 ? (value.get(day) ?? 0) / (spend.get(day) as number) : null);
    return [
      { label: 'spend', color: '#0969da', values: days.map((d) => spend.get(d) ?? 0), bars: true },
      { label: 'TikTok ROAS', color: '#1a7f37', scale: 'y2' as const, values: days.map(roas) },
    ];
  }, [daily.data, days]);

  /** This page's address with the drill-down changed and the period (and anything else) kept. */
  const at = (drill: { campaign?: string; adgroup?: string }) => {
    const next = new URLSearchParams(params);
    next.delete('campaign');
    next.delete('adgroup');
    if (drill.campaign) next.set('campaign', drill.campaign);
    if (drill.adgroup) next.set('adgroup', drill.adgroup);
    return `?${next.toString()}`;
  };
  const drill = (row: AdReportRow) =>
    row.level === 'campaign' ? at({ campaign: row.entityId }) : row.level === 'adgroup' && campaignId ? at({ campaign: campaignId, adgroup: row.entityId }) : null;
  const scope = report.data?.scope;
  const columns = adColumns(level, report.data?.currency ?? null, drill, report.data?.totals);
  const exportLabel = adgroupId
    ? `Export CSV: the ads of ${nameOf(scope?.adgroup, `ad group ${adgroupId}`)}`
    : campaignId
      ? `Export CSV: the ad groups of ${nameOf(scope?.campaign, `campaign ${campaignId}`)}`
      : 'Export CSV: all campaigns';
  if (workspace !== undefined && !hasAdvertiser) return <NotConnected ws={ws} connected={workspace.tiktok !== null} />;
  return (
    <>
      <h1>Ad performance</h1>
      <PeriodPicker timeZone={timeZone} />
      <div className="toolbar">
        <nav aria-label="Drill-down" className="crumbs">
          <Link to={at({})}>All campaigns</Link>
          {campaignId && (
            <>
              {' › '}
              {adgroupId ? <Link to={at({ campaign: campaignId })}>{nameOf(scope?.campaign, campaignId)}</Link> : <span aria-current="page">{nameOf(scope?.campaign, campaignId)}</span>}
            </>
          )}
          {adgroupId && (
            <>
              {' › '}
              <span aria-current="page">{nameOf(scope?.adgroup, adgroupId)}</span>
            </>
          )}
        </nav>
        <PullNow base={base} cannot={whyNot(workspace?.role, 'editor', 'pull figures now (they are pulled every hour by themselves)')} pulling={pulling !== null} onStarted={(closeNotice) => (report.data ? setPulling({ ...pullStart(report.data), closeNotice }) : closeNotice())} />
      </div>
      {report.isPending && <Loading what="ad statistics" />}
      {report.isError && <ErrorNote error={report.error} />}
      {report.data && (
        <>
          <p className="muted">
            TikTok's figures, pulled {dateTime(report.data.statsPulledAt)}
            {report.data.statsPullError ? ` (last pull failed: ${report.data.statsPullError})` : ''}, beside the conversions Signalbox delivered for the same ad and day. Money is never summed across currencies.
            {report.data.currency ? ` Money in ${report.data.currency}; days in ${report.data.timeZone}.` : ''}
          </p>
          {report.data.notes.map((note) => (
            <p key={note} className="notice">
              <Words text={note} />
            </p>
          ))}
          <Chart days={days} series={series} title="Spend (bars) and TikTok ROAS (line, right axis) per day" rightAxisLabel="ROAS" />
          <DataTable
            className="ads-table"
            rows={report.data.rows}
            columns={columns}
            empty="No statistics for this period yet: they are pulled hourly once an advertiser is selected under Sources, or now with “Pull now”."
          />
          <dl className="legend">
            <dt>TikTok ROAS</dt>
            <dd>The value of the conversions TikTok attributed to the ad, per unit of spend. “—”: {NO_TIKTOK_ROAS}</dd>
            <dt>Signalbox ROAS</dt>
            <dd>The value of the orders Signalbox delivered for clicks on the ad, per unit of spend: an order sent as several TikTok events counts once, by its rule’s own event. “—”: {NO_SIGNALBOX_ROAS}</dd>
          </dl>
          <p>
            <a className="button small" href={`/console/api/${base}/ads/report.csv?${query.toString()}`} download>
              {exportLabel}
            </a>
          </p>
        </>
      )}
    </>
  );
}
