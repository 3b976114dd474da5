import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Button } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { api, get } from '../api';
import { ErrorNote, FactDetails, Help, Loading, Status, WhyNot, Words } from '../components/bits';
import { FormError } from '../components/FormError';
import { destinationText, MATCHED_ON_PERSON, matchedOnPerson, sourceName } from '../components/Source';
import { dateTime, money } from '../format';
import { useWorkspace, whyNot } from '../session';
import type { ConsoleConversionDetailView as Detail } from '../../../contract/conversion-detail';
import type { ConsoleRetryView } from '../../../contract/send-again-views';
import { IDENTITY_KINDS, IDENTITY_LINKS, MATCH_KEYS } from '../words';

const KEY_SOURCES: Record<string, string> = { message: 'the event', visitor: 'visitor', identity: 'a linked identity' };

/** A key's name in words (words.ts), and where it came from, the visitor's ID as code. */
function KeySource({ matchKey, from }: { matchKey: string; from: { source: string; anonymousId?: string } }) {
  return (
    <>
      {MATCH_KEYS[matchKey] ?? matchKey} from {KEY_SOURCES[from.source] ?? from.source}
      {from.anonymousId && (
        <>
          {' '}
          <code>{from.anonymousId}</code>
        </>
      )}
    </>
  );
}

/** `properties.total is "12,50", not an amount…`: the field and what it held as code, the rest in words. */
function warningText(warning: Detail['warnings'][number]): string {
  const { field, found, message } = warning;
  const head = `${field} is ${found}`;
  return field !== undefined && found !== undefined && message.startsWith(head) ? `\`${field}\` is \`${found}\`${message.slice(head.length)}` : message;
}

/** A pending conversion is read again by itself: every second at first, then a quarter of its wait, at most every 15 s. */
const refreshDelay = (pendingSince: string) => Math.min(15_000, Math.max(1_000, (Date.now() - Date.parse(pendingSince)) / 4));

function Timeline({ entries }: { entries: Detail['timeline'] }) {
  return (
    <ol className="timeline">
      {entries.map((entry, i) => (
        <li key={i}>
          {entry.at && <span className="muted">{dateTime(entry.at)} </span>}
          <strong>
            <Words text={entry.summary} />
          </strong>
          <FactDetails summary="Details" facts={entry.details} />
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
        Its rule sends each event as several TikTok events, each a conversion of its own, delivered and explained on its own. {detail.messageEvents[0]?.tiktokEvent} keeps the event's event ID (<code>event_id</code>), the
        one the browser pixel shares; the others add <code>:&lt;their name&gt;</code> to it.
      </p>
      <ul>
        {detail.messageEvents.map((e) => (
          <li key={e.id}>
            {e.id === detail.id ? <strong>{e.tiktokEvent} (this one)</strong> : <Link to={`/w/${ws}/conversions/${e.id}`}>{e.tiktokEvent}</Link>} event ID <code>{e.eventId}</code> <Status status={e.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ConversionPage() {
  const { ws, base, data: workspace } = useWorkspace();
  const { id = '' } = useParams();
  const whyId = useId();
  const cannot = whyNot(workspace?.role, 'editor', 'send conversions again');
  const queries = useQueryClient();
  const detail = useQuery({
    queryKey: ['conversion', ws, id],
    queryFn: () => get<Detail>(`${base}/conversions/${id}`),
    // Until it leaves pending (after "Send again", say); leaving the page stops it.
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? refreshDelay(query.state.data.updatedAt) : false),
  });
  const sendAgain = useMutation({
    mutationFn: () => api<ConsoleRetryView>('POST', `${base}/conversions/${id}/retry`),
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
        {d.orderName ? `Order ${d.orderName}: ` : ''}
        {d.tiktokEvent} <Status status={d.status} testMode={d.testMode} />
      </h1>
      <p>
        Your event <code>{d.sourceEvent}</code> at {dateTime(d.eventTime)} · order or event ID <code>{d.eventId}</code> · value {money(d.value, d.currency)} · user ID {d.userId ? <code>{d.userId}</code> : '–'} · visitor{' '}
        {d.anonymousId ? <code>{d.anonymousId}</code> : '–'}
      </p>
      <p>
        From: {sourceName(d.eventSource)} · {destinationText(d.eventSource, d.status)}
        {matchedOnPerson(d.eventSource) && <span className="muted"> · {MATCHED_ON_PERSON}</span>}
      </p>
      {sendAgain.data && (
        <p role="status" className="notice">
          {!sendAgain.data.requeued
            ? 'It is no longer failed or skipped: nothing to send again.'
            : d.status === 'pending'
              ? 'Sent again: waiting for it to be processed. This page refreshes by itself.'
              : `Processed again: it is now ${d.status}.`}
        </p>
      )}
      {d.reason && (
        <section aria-labelledby="why" className="why">
          <h2 id="why">Why: {d.help?.label ?? d.reason}</h2>
          <Help help={d.help} />
          {d.canSendAgain && (
            <p>
              <Button className="button primary" onPress={() => sendAgain.mutate()} isPending={sendAgain.isPending} isDisabled={cannot !== null} aria-describedby={cannot === null ? undefined : whyId}>
                Send again
              </Button>{' '}
              {cannot === null ? <span className="muted">It keeps its event ID, so TikTok counts it once even if it arrived before.</span> : <WhyNot id={whyId}>{cannot}</WhyNot>}
            </p>
          )}
          {!d.canSendAgain && (d.status === 'failed' || d.status === 'skipped') && d.sendAgainRefusal && <p className="muted">Not offered to send again: {d.sendAgainRefusal}.</p>}
          <FormError error={sendAgain.error} />
        </section>
      )}
      {d.withoutClickHelp && (
        <section aria-labelledby="without-click" className="why">
          <h2 id="without-click">Sent without a click</h2>
          <Help help={d.withoutClickHelp} />
          {d.matchKeys && (
            <p>
              TikTok matches it on:{' '}
              {Object.keys(d.matchKeys)
                .map((key) => MATCH_KEYS[key] ?? key)
                .sort()
                .join(', ')}
              .
            </p>
          )}
        </section>
      )}
      {d.messageEvent.of > 1 && <MessageEvents detail={d} />}
      {d.repeatedBy.length > 0 && (
        <section aria-labelledby="duplicates" className="why">
          <h2 id="duplicates">Repeated order ID or event ID ({d.repeatedBy.length})</h2>
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
                <Words text={warningText(w)} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <Timeline entries={d.timeline} />
      </section>
      <section aria-labelledby="identity">
        <h2 id="identity">How the click was found</h2>
        {d.clickFromLandingPage && (
          <p>The shopper came from the TikTok ad: the page their visit began on, which Shopify keeps with the order, carried the ad’s click. No later click was found for this person.</p>
        )}
        {d.click.source === 'message' && !d.clickFromLandingPage && <p>This event carried the click itself (the tracking tag adds it to every event after a click; a Shopify order takes it from its cart or the page its visit landed on), and no later click was found for this person.</p>}
        {d.identityPath === null ? (
          d.click.source !== 'message' && (
            <p className="empty">{d.click.ttclid ? 'The click is known, but its path is not recorded.' : d.sentWithoutClick ? 'No click inside the attribution window: sent without one.' : 'No click was found for this person.'}</p>
          )
        ) : (
          <ol className="path">
            {d.identityPath.map((node, i) => (
              <li key={i}>
                {node.linkFromPrevious && <span className="link">↓ {IDENTITY_LINKS[node.linkFromPrevious] ?? node.linkFromPrevious}</span>}
                <span className="node">
                  {IDENTITY_KINDS[node.kind] ?? node.kind}: <code>{node.value}</code>
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
          <>
            <p>Match keys sent:</p>
            <ul className="match-keys">
              {Object.entries(d.matchKeys).map(([key, from]) => (
                <li key={key}>
                  <KeySource matchKey={key} from={from} />
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section aria-labelledby="payload">
        <h2 id="payload">Sent to TikTok, and TikTok's answer</h2>
        {d.requestPayload ? (
          <details>
            <summary>The event as sent (email and phone hashed)</summary>
            <pre className="code">{JSON.stringify(d.requestPayload, null, 2)}</pre>
          </details>
        ) : (
          <p className="empty">Nothing was sent.</p>
        )}
        <dl className="answer">
          <dt>TikTok's code</dt>
          <dd>{d.tiktokResponse.code ?? '–'}</dd>
          <dt>Message</dt>
          <dd>{d.tiktokResponse.message ? <code>{d.tiktokResponse.message}</code> : '–'}</dd>
          <dt>Request ID</dt>
          <dd>
            <code>{d.tiktokResponse.requestId ?? '–'}</code>
          </dd>
        </dl>
      </section>
    </>
  );
}
