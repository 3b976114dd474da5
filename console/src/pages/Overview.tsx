import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { get } from '../api';
import { ErrorNote, Help, Loading } from '../components/bits';
import { Chart } from '../components/Chart';
import { MatchQualityTable } from '../components/MatchQualityTable';
import { SetupChecklist } from '../components/Setup';
import { PeriodPicker, usePeriod } from '../components/Period';
import { dateTime, daysBetween, number, percent } from '../format';
import { useTimeZone, useWorkspace } from '../session';
import type { OverviewView as Overview } from '../../../contract/overview-views';
import { MATCH_KEYS } from '../words';

const COLORS = { delivered: '#1a7f37', 'delivered without a click': '#4ac26b', test: '#8250df', skipped: '#bf8700', failed: '#cf222e', pending: '#57606a' };

/** Where a count goes on the chart: test deliveries and deliveries without a click apart from click-attributed ones. */
function bucket(c: Overview['conversions'][number]): keyof typeof COLORS {
  if (c.status !== 'delivered') return c.status;
  if (c.testMode) return 'test';
  return c.sentWithoutClick ? 'delivered without a click' : 'delivered';
}

function sum<T>(rows: T[], key: (row: T) => string, value: (row: T) => number): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of rows) out.set(key(row), (out.get(key(row)) ?? 0) + value(row));
  return out;
}

export function OverviewPage() {
  const { ws, base } = useWorkspace();
  const timeZone = useTimeZone();
  const [period] = usePeriod(timeZone);
  const [event, setEvent] = useState<string>('all');
  const overview = useQuery({
    queryKey: ['overview', ws, period],
    queryFn: () => get<Overview>(`${base}/overview?from=${period.from}&to=${period.to}&timeZone=${encodeURIComponent(timeZone)}`),
  });
  const days = useMemo(() => daysBetween(period.from, period.to), [period.from, period.to]);
  const chart = useMemo(() => {
    const rows = (overview.data?.conversions ?? []).filter((c) => event === 'all' || c.tiktokEvent === event);
    return (Object.keys(COLORS) as (keyof typeof COLORS)[]).map((status) => {
      const perDay = sum(rows.filter((c) => bucket(c) === status), (c) => c.day, (c) => c.conversions);
      return { label: status, color: COLORS[status], values: days.map((d) => perDay.get(d) ?? 0), bars: true };
    });
  }, [overview.data, event, days]);
  const eventSeries = useMemo(() => {
    const perDay = sum(overview.data?.events ?? [], (e) => e.day, (e) => e.events);
    return [{ label: 'events received', color: '#0969da', values: days.map((d) => perDay.get(d) ?? 0), bars: true }];
  }, [overview.data, days]);

  return (
    <>
      <h1>Overview</h1>
      <SetupChecklist />
      <PeriodPicker timeZone={timeZone} />
      {overview.isPending && <Loading what="figures" />}
      {overview.isError && <ErrorNote error={overview.error} />}
      {overview.data && <OverviewBody data={overview.data} days={days} chart={chart} eventSeries={eventSeries} event={event} setEvent={setEvent} ws={ws} />}
    </>
  );
}

function OverviewBody({ data, days, chart, eventSeries, event, setEvent, ws }: { data: Overview; days: string[]; chart: Parameters<typeof Chart>[0]['series']; eventSeries: Parameters<typeof Chart>[0]['series']; event: string; setEvent: (e: string) => void; ws: string }) {
  const byType = [...sum(data.events, (e) => e.type, (e) => e.events).entries()].sort((a, b) => b[1] - a[1]);
  const topNames = [...sum(data.events.filter((e) => e.type === 'track'), (e) => e.eventName, (e) => e.events).entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
  const skippedByReason = [...sum(data.conversions.filter((c) => c.status === 'skipped' || (c.status === 'delivered' && c.testMode)), (c) => c.reason ?? 'unknown', (c) => c.conversions).entries()];
  const delivered = sum(data.conversions, bucket, (c) => c.conversions);
  const helpOf = new Map(data.reasons.map((r) => [r.reason, r.help]));
  const labelOf = (reason: string | null) => (reason === null ? 'Failed' : (helpOf.get(reason)?.label ?? reason));
  const failedByCode = [...sum(data.conversions.filter((c) => c.status === 'failed'), (c) => `${labelOf(c.reason)}${c.tiktokCode === null ? '' : ` (TikTok's code ${c.tiktokCode})`}`, (c) => c.conversions).entries()];
  const tiktokEvents = [...new Set(data.conversions.map((c) => c.tiktokEvent))].sort();
  if (data.events.length === 0 && data.conversions.length === 0) {
    return (
      <>
        <p className="notice">
          Nothing to show for this period: no event arrived and no conversion was made. The setup steps above say what is missing; once events arrive, their figures appear here.
        </p>
        <MatchQualityTable matchQuality={data.matchQuality} />
      </>
    );
  }
  return (
    <>
      <section aria-labelledby="tiktok-events">
        <h2 id="tiktok-events">TikTok events</h2>
        {data.tiktokEvents.length === 0 ? (
          <p className="empty">
            No conversion rule yet: <Link to={`/w/${ws}/rules`}>add one</Link> so that events become TikTok conversions.
          </p>
        ) : (
          <div className="cards grid">
            {data.tiktokEvents.map((t) => (
              <div key={t.tiktokEvent} className="card stat">
                <h3>{t.tiktokEvent}</h3>
                <p>
                  <span className={`badge ${t.status === 'active' ? 'delivered' : 'pending'}`}>{t.status === 'active' ? 'Active' : 'No recent activity'}</span>
                </p>
                <p className="muted">Last delivered: {dateTime(t.lastDeliveredAt)}</p>
                <p>
                  {number(t.deliveredLast7Days)} delivered in 7 days ·{' '}
                  {t.learningPhase.enough ? (
                    <span className="ok">enough for the learning phase</span>
                  ) : (
                    <span className="warn">below the {t.learningPhase.needed} a week TikTok's learning phase needs</span>
                  )}
                </p>
              </div>
            ))}
          </div>
        )}
      </section>

      <MatchQualityTable matchQuality={data.matchQuality} />

      <section aria-labelledby="conversions-chart">
        <h2 id="conversions-chart">Conversions</h2>
        <label className="inline">
          TikTok event{' '}
          <select value={event} onChange={(e) => setEvent(e.target.value)}>
            <option value="all">All events</option>
            {tiktokEvents.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <Chart days={days} series={chart} title="Conversions per day: delivered with a click, delivered without a click, test, skipped, failed, pending" stacked />
        <p>
          Delivered in this period: <strong>{number(delivered.get('delivered') ?? 0)}</strong> with a TikTok click inside the attribution window
          {(delivered.get('delivered without a click') ?? 0) > 0 && (
            <>
              , and <strong>{number(delivered.get('delivered without a click') ?? 0)}</strong> sent without a click for TikTok to match on email, phone and the other keys (in no campaign's figures)
            </>
          )}
          .
        </p>
        <div className="columns">
          <div>
            <h3>Not sent, by reason</h3>
            {skippedByReason.length === 0 ? (
              <p className="empty">None in this period.</p>
            ) : (
              <ul className="reasons">
                {skippedByReason.map(([reason, count]) => (
                  <li key={reason}>
                    <Link to={`/w/${ws}/conversions?reason=${reason}`}>
                      <strong>{labelOf(reason)}</strong>: {number(count)}
                    </Link>
                    <Help help={helpOf.get(reason) ?? null} />
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3>Failed, by reason</h3>
            {failedByCode.length === 0 ? (
              <p className="empty">None in this period.</p>
            ) : (
              <ul>
                {failedByCode.map(([code, count]) => (
                  <li key={code}>
                    {code}: {number(count)}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </section>

      <section aria-labelledby="match-keys">
        <h2 id="match-keys">Match keys</h2>
        <p className="muted">
          Share of {number(data.matchKeys.delivered)} delivered conversions (the newest {number(data.matchKeys.sampleLimit)} at most) that carried each key. TikTok recommends a match rate of{' '}
          {percent(data.matchKeys.target)} or more: more keys, more matches.
        </p>
        {data.matchKeys.delivered === 0 ? (
          <p className="empty">No delivered conversion in this period yet.</p>
        ) : (
          <ul className="bars">
            {data.matchKeys.keys.map((k) => (
              <li key={k.key}>
                <span className="bar-label">{MATCH_KEYS[k.key] ?? k.key}</span>
                <span className="bar" aria-hidden="true">
                  <span className={(k.share ?? 0) >= data.matchKeys.target ? 'fill ok' : 'fill warn'} style={{ width: `${Math.round((k.share ?? 0) * 100)}%` }} />
                </span>
                <span className="bar-value">{percent(k.share)}</span>
              </li>
            ))}
          </ul>
        )}
        <p>
          <strong>Event IDs for deduplication:</strong> {percent(data.eventIds.share)} of {number(data.eventIds.conversions)} conversions carried an event ID (<code>event_id</code>) or order ID the browser pixel can
          share, so TikTok counts a purchase seen by both once.
        </p>
      </section>

      <section aria-labelledby="events-received">
        <h2 id="events-received">Events received</h2>
        <Chart days={days} series={eventSeries} title="Events received per day" height={180} />
        <div className="columns">
          <table>
            <caption>By type</caption>
            <tbody>
              {byType.map(([type, count]) => (
                <tr key={type}>
                  <th scope="row">{type}</th>
                  <td>{number(count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table>
            <caption>Most frequent track events</caption>
            <tbody>
              {topNames.map(([name, count]) => (
                <tr key={name}>
                  <th scope="row">
                    <code>{name}</code>
                  </th>
                  <td>{number(count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {byType.length === 0 && <p className="empty">No event arrived in this period. Sources shows how to send them.</p>}
      </section>
    </>
  );
}
