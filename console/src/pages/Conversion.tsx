import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api, get } from '../api';
import { ErrorNote, Help, Loading, Status } from '../components/bits';
import { dateTime, money } from '../format';
import { canEdit, useWorkspace } from '../session';
import type { ConversionSummary, Help as HelpText } from '../types';

interface Detail extends ConversionSummary {
  receivedAt: string | null;
  userId: string | null;
  anonymousId: string | null;
  messageId: string;
  workflowId: string;
  workflowUrl: string | null;
  workflowStartedAt: string | null;
  attempts: number;
  click: { ttclid: string | null; capturedAt: string | null; anonymousId: string | null };
  ttp: string | null;
  requestPayload: unknown;
  tiktokResponse: { code: number | null; message: string | null; requestId: string | null; body: unknown };
  warnings: { code: string; field?: string; message: string }[];
  matchKeys: Record<string, { source: string; anonymousId?: string }> | null;
  identityPath: { kind: string; value: string; linkFromPrevious: string | null }[] | null;
  identityPathRecorded: boolean;
  history: { id: string; at: string; step: string; detail: Record<string, unknown> }[];
  help: HelpText | null;
  repeatedBy: { id: string; messageId: string; event: string | null; receivedAt: string }[];
  repeatedHelp: HelpText | null;
  messageEvents: { id: string; tiktokEvent: string; eventId: string; status: ConversionSummary['status'] }[];
  canSendAgain: boolean;
}

const LINKS: Record<string, string> = { same_anonymous_id: 'same anonymous ID', same_user: 'same user ID', same_email: 'same hashed email', same_phone: 'same hashed phone' };
const KINDS: Record<string, string> = { anonymous_id: 'visitor (anonymous ID)', user_id: 'user', email_sha256: 'email (SHA-256)', phone_sha256: 'phone (SHA-256)' };

function Timeline({ detail }: { detail: Detail }) {
  const steps: { at: string | null; what: string; detail?: string }[] = [{ at: detail.receivedAt, what: 'Event received', detail: `message ${detail.messageId}` }];
  if (detail.history.length > 0) {
    for (const h of detail.history) steps.push({ at: h.at, what: h.step.replace(/_/g, ' '), detail: JSON.stringify(h.detail) });
  } else {
    steps.push({ at: detail.createdAt, what: 'Conversion recorded', detail: `${detail.sourceEvent} → ${detail.tiktokEvent}` });
    if (detail.workflowStartedAt) steps.push({ at: detail.workflowStartedAt, what: 'Workflow started', detail: detail.workflowId });
    if (detail.click.ttclid) steps.push({ at: detail.click.capturedAt, what: 'Click found', detail: `ttclid ${detail.click.ttclid} on visitor ${detail.click.anonymousId ?? '?'}` });
    if (detail.attempts > 0) steps.push({ at: null, what: `${detail.attempts} delivery attempt${detail.attempts === 1 ? '' : 's'}`, detail: detail.tiktokResponse.code === null ? undefined : `last answer: code ${detail.tiktokResponse.code} ${detail.tiktokResponse.message ?? ''}` });
    if (detail.completedAt) steps.push({ at: detail.completedAt, what: `Outcome: ${detail.status}`, detail: detail.reason ?? undefined });
  }
  return (
    <ol className="timeline">
      {steps.map((s, i) => (
        <li key={i}>
          <span className="muted">{s.at ? dateTime(s.at) : ''}</span> <strong>{s.what}</strong> {s.detail && <span className="muted">{s.detail}</span>}
        </li>
      ))}
    </ol>
  );
}

/** The other TikTok events its rule sent the same message as, each a conversion of its own. */
function MessageEvents({ detail }: { detail: Detail }) {
  const { ws } = useWorkspace();
  return (
    <section aria-labelledby="message-events">
      <h2 id="message-events">
        {detail.messageEvent.position} of {detail.messageEvent.of} TikTok events sent for this message
      </h2>
      <p className="muted">
        Its rule sends each event as several TikTok events, each a conversion of its own, delivered and explained on its own. {detail.messageEvents[0]?.tiktokEvent} keeps the event's event_id, the one the browser pixel
        shares; the others add :&lt;their name&gt; to it.
      </p>
      <ul>
        {detail.messageEvents.map((e) => (
          <li key={e.id}>
            {e.id === detail.id ? <strong>{e.tiktokEvent} (this one)</strong> : <Link to={`/w/${ws}/conversions/${e.id}`}>{e.tiktokEvent}</Link>} event_id <code>{e.eventId}</code> <Status status={e.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ConversionPage() {
  const { ws, base, data: workspace } = useWorkspace();
  const { id = '' } = useParams();
  const queries = useQueryClient();
  const detail = useQuery({ queryKey: ['conversion', ws, id], queryFn: () => get<Detail>(`${base}/conversions/${id}`) });
  const sendAgain = useMutation({
    mutationFn: () => api<{ requeued: boolean }>('POST', `${base}/conversions/${id}/retry`),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['conversion', ws, id] }),
  });
  if (detail.isPending) return <Loading what="the conversion" />;
  if (detail.isError) return <ErrorNote error={detail.error} />;
  const d = detail.data;
  return (
    <>
      <p>
        <Link to={`/w/${ws}/conversions`}>← Conversions</Link>
      </p>
      <h1>
        {d.tiktokEvent} <Status status={d.status} testMode={d.testMode} />
      </h1>
      <p>
        {d.sourceEvent} at {dateTime(d.eventTime)} · event_id <code>{d.eventId}</code> · value {money(d.value, d.currency)} · user {d.userId ?? '–'} · anonymous ID {d.anonymousId ?? '–'}
      </p>
      {d.reason && (
        <section aria-labelledby="why" className="why">
          <h2 id="why">Why: {d.reason}</h2>
          <Help help={d.help} />
          {d.canSendAgain && canEdit(workspace?.role) && (
            <p>
              <Button className="button primary" onPress={() => sendAgain.mutate()} isPending={sendAgain.isPending}>
                Send again
              </Button>{' '}
              <span className="muted">It keeps its event_id, so TikTok counts it once even if it arrived before.</span>
            </p>
          )}
          {sendAgain.data && <p role="status">{sendAgain.data.requeued ? 'Sent back to the pipeline: its status is pending until TikTok answers.' : 'It is no longer failed or skipped: nothing to send again.'}</p>}
        </section>
      )}
      {d.messageEvent.of > 1 && <MessageEvents detail={d} />}
      {d.repeatedBy.length > 0 && (
        <section aria-labelledby="duplicates" className="why">
          <h2 id="duplicates">Repeated order ID or event_id ({d.repeatedBy.length})</h2>
          <Help help={d.repeatedHelp} />
          <ul>
            {d.repeatedBy.map((e) => (
              <li key={e.id}>
                {dateTime(e.receivedAt)} message <code>{e.messageId}</code> ({e.event ?? 'event'}): stored, no second conversion
              </li>
            ))}
          </ul>
        </section>
      )}
      {d.warnings.length > 0 && (
        <section aria-labelledby="warnings">
          <h2 id="warnings">Warnings</h2>
          <ul>
            {d.warnings.map((w, i) => (
              <li key={i}>
                {w.field && <code>{w.field}</code>} {w.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <Timeline detail={d} />
        {d.workflowUrl && (
          <p>
            <a href={d.workflowUrl} target="_blank" rel="noreferrer">
              Open its workflow in the Temporal UI
            </a>
          </p>
        )}
      </section>
      <section aria-labelledby="identity">
        <h2 id="identity">How the click was found</h2>
        {d.identityPath === null ? (
          <p className="empty">{d.click.ttclid ? 'The click is known, but its path is not recorded.' : 'No click was found for this person.'}</p>
        ) : (
          <ol className="path">
            {d.identityPath.map((node, i) => (
              <li key={i}>
                {node.linkFromPrevious && <span className="link">↓ {LINKS[node.linkFromPrevious] ?? node.linkFromPrevious}</span>}
                <span className="node">
                  {KINDS[node.kind] ?? node.kind}: <code>{node.value}</code>
                  {node.kind === 'anonymous_id' && node.value === d.click.anonymousId && ' — clicked the ad'}
                </span>
              </li>
            ))}
          </ol>
        )}
        {d.click.ttclid && (
          <p>
            Click <code>{d.click.ttclid}</code> at {dateTime(d.click.capturedAt)}
            {d.ttp && (
              <>
                , _ttp <code>{d.ttp}</code>
              </>
            )}
            {!d.identityPathRecorded && d.identityPath && <span className="muted"> (path rebuilt from today's identity links)</span>}
          </p>
        )}
        {d.matchKeys && (
          <p>
            Match keys sent:{' '}
            {Object.entries(d.matchKeys)
              .map(([key, source]) => `${key} (from ${source.source}${source.anonymousId ? ` ${source.anonymousId}` : ''})`)
              .join(', ')}
          </p>
        )}
      </section>
      <section aria-labelledby="payload">
        <h2 id="payload">Sent to TikTok, and TikTok's answer</h2>
        {d.requestPayload ? <pre className="code">{JSON.stringify(d.requestPayload, null, 2)}</pre> : <p className="empty">Nothing was sent.</p>}
        <dl className="answer">
          <dt>Code</dt>
          <dd>{d.tiktokResponse.code ?? '–'}</dd>
          <dt>Message</dt>
          <dd>{d.tiktokResponse.message ?? '–'}</dd>
          <dt>Request ID</dt>
          <dd>
            <code>{d.tiktokResponse.requestId ?? '–'}</code>
          </dd>
        </dl>
      </section>
    </>
  );
}
