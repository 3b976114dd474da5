import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '../api';
import { Status } from '../components/bits';
import { Field, Form, FormError, Submit } from '../components/Form';
import { dateTime, money } from '../format';
import { useReasons } from '../reasons';
import { useWorkspace } from '../session';
import { IDENTITY_KINDS, IDENTITY_LINKS } from '../words';

interface Person {
  lookedUp: { kind: string; value: string };
  found: boolean;
  identifiers: { kind: string; value: string; hops: number; link: string | null; via: { kind: string; value: string } | null }[];
  visitors: { anonymousId: string; firstSeenAt: string; lastSeenAt: string; ttclid: string | null; ttclidCapturedAt: string | null; ttp: string | null; userAgent: string | null }[];
  clicks: { anonymousId: string; ttclid: string; capturedAt: string; pageUrl: string | null; campaignId: string | null }[];
  events: { id: string; type: string; eventName: string | null; receivedAt: string; userId: string | null; anonymousId: string | null }[];
  conversions: { id: string; status: string; reason: string | null; tiktokEvent: string; eventId: string; eventTime: string; value: number | null; currency: string | null }[];
}

/** Spec §7.7: why do identities not link? Everything known about one person. */
export function PeoplePage() {
  const { ws, base } = useWorkspace();
  const reasons = useReasons();
  const [kind, setKind] = useState('email');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const lookup = useMutation({
    mutationFn: (body: { kind: string; value: string }) => api<Person>('POST', `${base}/people/lookup`, body),
    onSuccess: () => setErrors({}),
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const p = lookup.data;
  return (
    <>
      <h1>People</h1>
      <p className="muted">Look a visitor or user up. Email and phone are hashed on the server exactly as at ingest; they are not stored or logged for the lookup.</p>
      <Form label="Look a person up" errors={errors} onSubmit={(data) => lookup.mutate({ kind, value: String(data.get('value') ?? '') })}>
        <div className="row">
          <label className="field">
            <span>By</span>
            <select value={kind} onChange={(e) => setKind(e.target.value)}>
              <option value="email">email</option>
              <option value="phone">phone</option>
              <option value="user_id">user ID</option>
              <option value="anonymous_id">anonymous ID</option>
            </select>
          </label>
          <Field name="value" label="Value" placeholder={kind === 'email' ? 'jo@example.com' : ''} />
          <Submit pending={lookup.isPending}>Look up</Submit>
        </div>
        <FormError error={lookup.error instanceof ApiError && Object.keys(lookup.error.fieldErrors()).length === 0 ? lookup.error : null} />
      </Form>
      {p && !p.found && <p className="empty">Nobody with this {kind.replace('_', ' ')} has been seen. Identities link when an event carries both userId and anonymousId, or the same email or phone.</p>}
      {p && p.found && (
        <>
          <section aria-labelledby="ids">
            <h2 id="ids">Linked identifiers</h2>
            <ul>
              {p.identifiers.map((i) => (
                <li key={`${i.kind}:${i.value}`}>
                  {IDENTITY_KINDS[i.kind] ?? i.kind}: <code>{i.value}</code>{' '}
                  {i.link && i.via && (
                    <span className="muted">
                      ({IDENTITY_LINKS[i.link] ?? i.link} as {i.via.value.slice(0, 16)})
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="devices">
            <h2 id="devices">Devices (visitors)</h2>
            <ul className="cards">
              {p.visitors.map((v) => (
                <li key={v.anonymousId} className="card">
                  <div>
                    <strong>{v.anonymousId}</strong> <span className="muted">{v.userAgent ?? ''}</span>
                    <div className="muted">
                      first seen {dateTime(v.firstSeenAt)} · last seen {dateTime(v.lastSeenAt)} · ttclid {v.ttclid ?? '–'} · _ttp {v.ttp ?? '–'}
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="clicks">
            <h2 id="clicks">Ad clicks</h2>
            {p.clicks.length === 0 ? <p className="empty">No TikTok click: this person's conversions are not sent ({reasons.label('no_ttclid')}).</p> : null}
            <ul>
              {p.clicks.map((c) => (
                <li key={`${c.anonymousId}:${c.ttclid}`}>
                  {dateTime(c.capturedAt)} on {c.anonymousId}: <code>{c.ttclid}</code> {c.campaignId ? `campaign ${c.campaignId}` : ''}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="recent">
            <h2 id="recent">Recent events</h2>
            <ul>
              {p.events.map((e) => (
                <li key={e.id}>
                  {dateTime(e.receivedAt)} <span className="badge">{e.type}</span> {e.eventName ?? ''} <span className="muted">{e.userId ?? e.anonymousId}</span>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="their-conversions">
            <h2 id="their-conversions">Conversions</h2>
            {p.conversions.length === 0 && <p className="empty">None.</p>}
            <ul>
              {p.conversions.map((c) => (
                <li key={c.id}>
                  <Link to={`/w/${ws}/conversions/${c.id}`}>
                    {dateTime(c.eventTime)} {c.tiktokEvent}
                  </Link>{' '}
                  <Status status={c.status} /> {reasons.label(c.reason)} {money(c.value, c.currency)}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </>
  );
}
