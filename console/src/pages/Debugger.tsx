import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { Link } from 'react-router';
import { FactDetails, Words } from '../components/bits';
import { dateTime } from '../format';
import { useWorkspace } from '../session';
import { EventOutcome } from './debugger/EventOutcome';
import type { DebuggerEventView as StreamEvent, IngestRefusalView as Refusal } from '../../../contract/debugger-views';

type Item = { kind: 'event'; at: string; key: string; event: StreamEvent } | { kind: 'refusal'; at: string; key: string; refusal: Refusal };

const KEEP = 500;

/** Spec §7.6 in one place: what arrives, and what was refused and why, live. */
export function DebuggerPage() {
  const { ws, base } = useWorkspace();
  const [items, setItems] = useState<Item[]>([]);
  const [paused, setPaused] = useState(false);
  const [connected, setConnected] = useState(false);
  const [type, setType] = useState('all');
  const [name, setName] = useState('');
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const held = useRef<Item[]>([]);

  useEffect(() => {
    const source = new EventSource(`/console/api/${base}/debugger/stream`);
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.addEventListener('session_expired', () => window.location.assign(`/console/sign-in?next=${encodeURIComponent(window.location.pathname)}`));
    source.addEventListener('batch', (message) => {
      const batch = JSON.parse((message as MessageEvent<string>).data) as { events: StreamEvent[]; refusals: Refusal[] };
      const arrived: Item[] = [
        ...batch.events.map((event) => ({ kind: 'event' as const, at: event.receivedAt, key: `e${event.id}`, event })),
        ...batch.refusals.map((refusal) => ({ kind: 'refusal' as const, at: refusal.at, key: `r${refusal.id}`, refusal })),
      ].sort((a, b) => (a.at < b.at ? 1 : -1));
      if (pausedRef.current) held.current = [...arrived, ...held.current].slice(0, KEEP);
      else setItems((current) => [...arrived, ...current].slice(0, KEEP));
    });
    return () => source.close();
  }, [base]);

  const resume = () => {
    setItems((current) => [...held.current, ...current].slice(0, KEEP));
    held.current = [];
    setPaused(false);
  };
  const shown = items.filter((item) => {
    if (type === 'refused') return item.kind === 'refusal';
    if (item.kind === 'refusal') return type === 'all' && name === '';
    if (type !== 'all' && item.event.type !== type) return false;
    return name === '' || (item.event.eventName ?? '').toLowerCase().includes(name.toLowerCase());
  });
  return (
    <>
      <h1>Event debugger</h1>
      <p className="muted">
        Events as they arrive for this workspace, each with what became of it (the conversion it made, the earlier event it repeated, or why it is none), and requests that were refused (a wrong or revoked key, a
        site that is not allowed, an invalid field), each with what to do. A request with a key Signalbox does not know shows here only when it named this workspace.
      </p>
      <div className="toolbar">
        <span className={`badge ${connected ? 'delivered' : 'pending'}`} aria-live="polite">
          {connected ? (paused ? 'paused' : 'live') : 'connecting…'}
        </span>
        <Button className="button small" onPress={() => (paused ? resume() : setPaused(true))}>
          {paused ? `Resume (${held.current.length} waiting)` : 'Pause'}
        </Button>
        <label>
          Show{' '}
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="all">everything</option>
            <option value="refused">refused requests</option>
            {['track', 'page', 'identify', 'screen', 'group', 'alias'].map((t) => (
              <option key={t} value={t}>
                {t} events
              </option>
            ))}
          </select>
        </label>
        <label>
          Event name <input type="search" value={name} onChange={(e) => setName(e.target.value)} placeholder="purchase" />
        </label>
      </div>
      {shown.length === 0 && <p className="empty">Waiting for events… Send one with your key, or open your site with the tag installed.</p>}
      <ul className="stream">
        {shown.map((item) =>
          item.kind === 'event' ? (
            <li key={item.key} className="stream-item">
              <details>
                <summary>
                  <span className="muted">{dateTime(item.event.receivedAt)}</span> <span className="badge">{item.event.type}</span> {item.event.eventName && <code className="event-name">{item.event.eventName}</code>}{' '}
                  <span className="muted">
                    {item.event.userId && (
                      <>
                        user <code>{item.event.userId}</code>{' '}
                      </>
                    )}
                    {item.event.anonymousId && (
                      <>
                        visitor <code>{item.event.anonymousId}</code>
                      </>
                    )}
                  </span>
                </summary>
                <pre className="code">{JSON.stringify(item.event.message, null, 2)}</pre>
              </details>
              <EventOutcome ws={ws} outcome={item.event.outcome} />
            </li>
          ) : (
            <li key={item.key} className="stream-item refused">
              <RefusedRequest ws={ws} refusal={item.refusal} />
            </li>
          ),
        )}
      </ul>
    </>
  );
}

/** An invalid field's issue, `batch[0].event is required…`: the field as code, the rest in words. */
function Issue({ issue }: { issue: string }) {
  const space = issue.indexOf(' ');
  if (space <= 0) return <>{issue}</>;
  return (
    <>
      <code>{issue.slice(0, space)}</code>
      {issue.slice(space)}
    </>
  );
}

/** A refused request: what happened and what to do, in words, with the page that fixes it; its codes folded away. */
function RefusedRequest({ ws, refusal }: { ws: string; refusal: Refusal }) {
  const { words } = refusal;
  return (
    <>
      <p className="refusal-title">
        <span className="muted">{dateTime(refusal.at)}</span> <span className="badge failed">refused</span> <strong>{words.title}</strong>
      </p>
      <p className="muted">From {refusal.source ? `${refusal.source.name} (${refusal.source.type === 'shopify' ? 'Shopify shop' : 'webhook'})` : 'the ingest API (your site’s tag, app or server)'}</p>
      <p className="outcome">
        <Words text={words.explanation} />
      </p>
      {refusal.issues && (
        <ul className="issues">
          {refusal.issues.map((issue) => (
            <li key={issue}>
              <Issue issue={issue} />
            </li>
          ))}
        </ul>
      )}
      <p className="outcome">
        <strong>Fix: </strong>
        <Words text={words.fix} /> {words.link && <Link to={`/w/${ws}/${words.link.page}`}>{words.link.label}</Link>}
      </p>
      <FactDetails
        summary="Details"
        facts={[
          { label: 'Address', value: refusal.path },
          { label: 'Key', value: refusal.keyPrefix ? `${refusal.keyPrefix}…` : 'none' },
          ...(refusal.origin ? [{ label: 'Sent from', value: refusal.origin }] : []),
          { label: 'Answer', value: `HTTP ${refusal.status}: ${refusal.message}` },
        ]}
      />
    </>
  );
}
