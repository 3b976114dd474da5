import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError } from '../api';
import { Loading, Status } from '../components/bits';
import { Field, Form, Submit } from '../components/Form';
import { FormError } from '../components/FormError';
import { dateTime, money } from '../format';
import { useReasons } from '../reasons';
import { useWorkspace } from '../session';
import { IDENTITY_KINDS, IDENTITY_LINKS } from '../words';
import type { AdEntityView as AdEntity, PersonView as Person } from '../../../contract/people-views';

/** "the campaign Spring sale", or by its ID until TikTok's statistics named it. */
const entityText = (what: string, entity: AdEntity | null) => (entity === null ? null : entity.name ? `${what} “${entity.name}”` : `${what} ${entity.id}`);

const KINDS = ['email', 'phone', 'user_id', 'anonymous_id'] as const;
type Kind = (typeof KINDS)[number];
const KIND_NAMES: Record<Kind, string> = { email: 'email', phone: 'phone', user_id: 'user ID', anonymous_id: 'anonymous ID' };

/** The lookup the URL names (`?email=…`, `?phone=…`, `?user_id=…`, `?anonymous_id=…`), so it can be shared and reloaded. */
function lookupInUrl(params: URLSearchParams): { kind: Kind; value: string } | undefined {
  for (const kind of KINDS) {
    const value = params.get(kind);
    if (value !== null && value !== '') return { kind, value };
  }
  return undefined;
}

/** What the Conversions search finds this person's conversions by: the looked-up value, or (for a phone) an ID linked to it. */
function conversionsSearch(lookedUp: { kind: Kind; value: string }, person: Person): string | undefined {
  if (lookedUp.kind !== 'phone') return lookedUp.value;
  return person.identifiers.find((i) => i.kind === 'user_id')?.value ?? person.identifiers.find((i) => i.kind === 'anonymous_id')?.value;
}

/** Spec §7.7: why do identities not link? Everything known about one person. */
export function PeoplePage() {
  const { ws, base } = useWorkspace();
  const reasons = useReasons();
  const [params, setParams] = useSearchParams();
  const lookedUp = lookupInUrl(params);
  const [kind, setKind] = useState<Kind>(lookedUp?.kind ?? 'email');
  const urlKind = lookedUp?.kind;
  useEffect(() => {
    if (urlKind !== undefined) setKind(urlKind);
  }, [urlKind]);
  const lookup = useQuery({
    queryKey: ['person', ws, lookedUp?.kind, lookedUp?.value],
    queryFn: () => api<Person>('POST', `${base}/people/lookup`, lookedUp),
    enabled: lookedUp !== undefined,
    retry: false,
  });
  const errors = lookup.error instanceof ApiError ? lookup.error.fieldErrors() : {};
  const p = lookup.data;
  const toConversions = (q: string) => `/w/${ws}/conversions?${new URLSearchParams({ q }).toString()}`;
  const toPerson = (k: string, value: string) => `/w/${ws}/people?${new URLSearchParams({ [k]: value }).toString()}`;
  const search = lookedUp && p ? conversionsSearch(lookedUp, p) : undefined;
  return (
    <>
      <h1>People</h1>
      <p className="muted">Look a visitor or user up. Email and phone are hashed on the server exactly as at ingest; they are not stored or logged for the lookup. The page's address holds the lookup, to share or reload.</p>
      {/* Mounted again when the address changes (back, forward, a link), so the form shows the lookup it holds. */}
      <Form key={`${lookedUp?.kind}:${lookedUp?.value}`} label="Look a person up" errors={errors} onSubmit={(data) => setParams({ [kind]: String(data.get('value') ?? '').trim() })}>
        <div className="row">
          <label className="field">
            <span>By</span>
            <select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_NAMES[k]}
                </option>
              ))}
            </select>
          </label>
          <Field name="value" label="Value" defaultValue={lookedUp?.value} placeholder={kind === 'email' ? 'jo@example.com' : ''} />
          <Submit pending={lookup.isFetching}>Look up</Submit>
        </div>
        <FormError error={lookup.error instanceof ApiError && Object.keys(errors).length === 0 ? lookup.error : null} />
      </Form>
      {lookup.isFetching && lookup.data === undefined && <Loading what="the person" />}
      {p && !p.found && lookedUp && (
        <p className="empty">Nobody with this {KIND_NAMES[lookedUp.kind]} has been seen. Identities link when an event carries both a user ID and a visitor ID, or the same email or phone.</p>
      )}
      {p && p.found && (
        <>
          <section aria-labelledby="ids">
            <h2 id="ids">Linked identifiers</h2>
            <ul>
              {p.identifiers.map((i) => (
                <li key={`${i.kind}:${i.value}`}>
                  {IDENTITY_KINDS[i.kind] ?? i.kind}:{' '}
                  {i.kind === 'user_id' || i.kind === 'anonymous_id' ? (
                    <>
                      <Link to={toPerson(i.kind, i.value)}>
                        <code>{i.value}</code>
                      </Link>{' '}
                      <Link to={toConversions(i.value)} className="small-link">
                        conversions
                      </Link>
                    </>
                  ) : (
                    <code>{i.value}</code>
                  )}{' '}
                  {i.link && i.via && (
                    <span className="muted">
                      ({IDENTITY_LINKS[i.link] ?? i.link} as <code>{i.via.value.slice(0, 16)}</code>)
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
                    <strong>
                      <Link to={toConversions(v.anonymousId)}>
                        <code>{v.anonymousId}</code>
                      </Link>
                    </strong>{' '}
                    {v.userAgent && <code className="muted">{v.userAgent}</code>}
                    <div className="muted">
                      first seen {dateTime(v.firstSeenAt)} · last seen {dateTime(v.lastSeenAt)} · TikTok click ID {v.ttclid ? <code>{v.ttclid}</code> : '–'} · <code>_ttp</code> cookie{' '}
                      {v.ttp ? <code>{v.ttp}</code> : '–'}
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
                  {dateTime(c.capturedAt)} on <code>{c.anonymousId}</code>: <code>{c.ttclid}</code>{' '}
                  {[entityText('campaign', c.campaign), entityText('ad group', c.adgroup), entityText('ad', c.ad)].filter((text) => text !== null).join(' · ')}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="recent">
            <h2 id="recent">Recent events</h2>
            <ul>
              {p.events.map((e) => (
                <li key={e.id}>
                  {dateTime(e.receivedAt)} <span className="badge">{e.type}</span> {e.eventName && <code>{e.eventName}</code>}{' '}
                  {(e.userId ?? e.anonymousId) !== null && (
                    <Link to={toConversions((e.userId ?? e.anonymousId) as string)} className="muted">
                      <code>{e.userId ?? e.anonymousId}</code>
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="their-conversions">
            <h2 id="their-conversions">Conversions</h2>
            {p.conversions.length === 0 && <p className="empty">None.</p>}
            {p.conversions.length > 0 && search !== undefined && (
              <p>
                <Link to={toConversions(search)}>All of this person's conversions, with filters</Link>
              </p>
            )}
            <ul>
              {p.conversions.map((c) => (
                <li key={c.id}>
                  <Link to={`/w/${ws}/conversions/${c.id}`}>
                    {dateTime(c.eventTime)} {c.tiktokEvent}
                  </Link>{' '}
                  <Status status={c.status} /> {[reasons.label(c.reason), money(c.value, c.currency)].filter((part) => part !== '' && part !== '–').join(' · ')}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </>
  );
}
