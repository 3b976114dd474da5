import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { PeriodChoice } from '../../components/Period';
import { number, percent } from '../../format';
import type { ConversionSource, EventDiagnosticsView as EventDiagnostics } from '../../../../contract/views';

type Parameter = keyof NonNullable<EventDiagnostics['missing']>;

const PARAMETERS: [Parameter, string][] = [
  ['value', 'value'],
  ['currency', 'currency'],
  ['contents', 'contents (or content IDs)'],
];

const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

/** One TikTok event's diagnostics (of one source when chosen): each figure a link to the conversions it counts (none when it counts none). */
export function EventDiagnosticsCard({ event, ws, period, source }: { event: EventDiagnostics; ws: string; period: PeriodChoice; source: ConversionSource | null }) {
  const counted = (count: number, text: string, filter: Record<string, string>): ReactNode => {
    if (count === 0) return text;
    const query = new URLSearchParams({ tiktokEvent: event.tiktokEvent, from: period.from, to: period.to, ...(source === null ? {} : { source }), ...filter });
    return <Link to={`/w/${ws}/conversions?${query.toString()}`}>{text}</Link>;
  };
  const refused = { status: 'failed', reason: 'tiktok_rejected' };
  // A custom event's name may hold spaces, which an ID list cannot.
  const headingId = useId();
  return (
    <section className="card diagnostic" aria-labelledby={headingId}>
      <h2 id={headingId}>{event.tiktokEvent}</h2>
      <dl className="figures">
        <dt>Received</dt>
        <dd>
          {counted(event.received, plural(event.received, 'conversion', 'conversions'), {})} <span className="muted">made from your events by its rules</span>
        </dd>
        <dt>Delivered</dt>
        <dd>
          {counted(event.delivered, number(event.delivered), { status: 'delivered' })}
          {event.deliveredInTestMode > 0 && <span className="muted"> ({number(event.deliveredInTestMode)} in test mode, seen only in TikTok’s Test Events)</span>}
        </dd>
        <dt>Not delivered</dt>
        <dd>
          {counted(event.failed, `${number(event.failed)} failed`, { status: 'failed' })} · {counted(event.skipped, `${number(event.skipped)} skipped`, { status: 'skipped' })}
          {event.pending > 0 && <> · {counted(event.pending, `${number(event.pending)} still being sent`, { status: 'pending' })}</>}
          {event.failed + event.skipped > 0 && <span className="muted"> (each conversion’s page says why)</span>}
        </dd>
        <dt>Refused by TikTok</dt>
        <dd>
          {counted(event.refused, number(event.refused), refused)}
          {event.refused > 0 && <span className="muted"> of the failed: TikTok answered with an error</span>}
        </dd>
        <dt>Missing recommended parameters</dt>
        <dd>
          {event.missing === null ? (
            <span className="muted">TikTok recommends none for this event (it carries no amount).</span>
          ) : (
            <>
              {event.built === 0 ? (
                <span className="muted">Nothing sent yet to check.</span>
              ) : (
                <>
                  {number(event.missingAny)} of {plural(event.built, 'conversion', 'conversions')} sent lacked one:{' '}
                  {PARAMETERS.map(([parameter, label], index) => (
                    <span key={parameter}>
                      {index > 0 && ' · '}
                      {counted(event.missing?.[parameter] ?? 0, `${label} ${number(event.missing?.[parameter] ?? 0)}`, { missing: parameter })}
                    </span>
                  ))}
                </>
              )}
            </>
          )}
        </dd>
        <dt>Repeated order or event IDs</dt>
        <dd>
          {counted(event.repeated, plural(event.repeated, 'conversion', 'conversions'), { repeated: 'true' })}
          {event.repeats > 0 && <span className="muted"> repeated by {plural(event.repeats, 'later event', 'later events')}, which made no conversion</span>}
        </dd>
        <dt>Delivered without a click</dt>
        <dd>
          {event.withoutClickShare === null ? (
            <span className="muted">Nothing delivered.</span>
          ) : (
            <>
              {counted(event.deliveredWithoutClick, percent(event.withoutClickShare), { status: 'delivered', withoutClick: 'true' })}{' '}
              <span className="muted">
                ({number(event.deliveredWithoutClick)} of {number(event.delivered)} delivered had no TikTok click, so TikTok matched them on other keys)
              </span>
            </>
          )}
        </dd>
      </dl>
      {event.topRefusals.length > 0 && (
        <>
          <h3>Why TikTok refused them</h3>
          <ul className="refusal-reasons">
            {event.topRefusals.map((refusal) => (
              <li key={refusal.tiktokCode ?? 'none'}>
                {/* Without TikTok's code the filter cannot single them out: the example stands for them. */}
                {refusal.tiktokCode === null
                  ? plural(refusal.conversions, 'conversion', 'conversions')
                  : counted(refusal.conversions, plural(refusal.conversions, 'conversion', 'conversions'), { ...refused, tiktokCode: String(refusal.tiktokCode) })}
                :{' '}
                {refusal.words}
                {refusal.tiktokCode !== null && <span className="muted"> (TikTok’s code {refusal.tiktokCode})</span>}.
                {refusal.example.message && (
                  <>
                    {' '}
                    TikTok said <code>{refusal.example.message}</code>
                  </>
                )}{' '}
                <Link to={`/w/${ws}/conversions/${refusal.example.conversionId}`}>
                  See an example: <code>{refusal.example.eventId}</code>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
