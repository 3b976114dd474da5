import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { dateTime } from '../format';
import { useWorkspace } from '../session';
import { EventOutcome, type Outcome } from './debugger/EventOutcome';

interface StreamEvent {
  id: string;
  type: string;
  eventName: string | null;
  receivedAt: string;
  userId: string | null;
  anonymousId: string | null;
  message: unknown;
  outcome: Outcome;
}
interface Refusal {
  id: string;
  at: string;
  status: number;
  error: string;
  message: string;
  issues: string[] | null;
  path: string;
  keyPrefix: string | null;
}
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
        Events as they arrive for this workspace, each with what became of it (the conversion it made, the earlier message it repeated, or why it is none), and requests that were refused (wrong or revoked key, another workspace's ID, an invalid field). A request with a key Signalbox does not know shows here only
        when it named this workspace in X-Workspace-Id.
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
                  <span className="muted">{dateTime(item.event.receivedAt)}</span> <span className="badge">{item.event.type}</span> <strong>{item.event.eventName ?? ''}</strong>{' '}
                  <span className="muted">
                    {item.event.userId ? `user ${item.event.userId}` : ''} {item.event.anonymousId ? `anonymous ${item.event.anonymousId}` : ''}
                  </span>
                </summary>
                <pre className="code">{JSON.stringify(item.event.message, null, 2)}</pre>
              </details>
              <EventOutcome ws={ws} outcome={item.event.outcome} />
            </li>
          ) : (
            <li key={item.key} className="stream-item refused">
              <details>
                <summary>
                  <span className="muted">{dateTime(item.refusal.at)}</span> <span className="badge failed">refused {item.refusal.status}</span> <strong>{item.refusal.message}</strong>
                </summary>
                <p>
                  {item.refusal.path} · key {item.refusal.keyPrefix ? `${item.refusal.keyPrefix}…` : 'none'} · {item.refusal.error}
                </p>
                {item.refusal.issues && (
                  <ul>
                    {item.refusal.issues.map((issue) => (
                      <li key={issue}>{issue}</li>
                    ))}
                  </ul>
                )}
              </details>
            </li>
          ),
        )}
      </ul>
    </>
  );
}
