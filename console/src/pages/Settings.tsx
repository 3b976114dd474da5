import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Switch } from 'react-aria-components';
import { api, ApiError, get } from '../api';
import { CopyButton, FactDetails, Loading, Words } from '../components/bits';
import { ConfirmButton } from '../components/ConfirmButton';
import { Field, Form, RoleNote, Submit, useReadOnlyReason, type ReadOnlyReason } from '../components/Form';
import { FormError } from '../components/FormError';
import { Pager } from '../components/Pager';
import { dateTime } from '../format';
import { useWorkspace, whyNot } from '../session';
import type { ChangeLogPageView } from '../../../contract/change-log-views';
import type { CreatedInvitationView, InvitationView, MembersView } from '../../../contract/team-views';
import { Erasure } from './settings/Erasure';
import { ExchangeRates } from './settings/ExchangeRates';
import { PersonalData } from './settings/PersonalData';
import { ShopifyPrivacyRequests } from './settings/ShopifyPrivacyRequests';
import { WorkspaceName } from './settings/WorkspaceName';
import type { InviteBody } from '../../../contract/console/workspace-routes';

export function SettingsPage() {
  const { base, data } = useWorkspace();
  // One sentence for every setting a role may only read, which each form and switch points at.
  const readOnly = useReadOnlyReason(whyNot(data?.role, 'editor', 'change settings'));
  if (data === undefined) return null;
  return (
    <>
      <h1>Settings</h1>
      <RoleNote readOnly={readOnly} />
      <WorkspaceName />
      <WorkspaceSettings base={base} readOnly={readOnly} />
      <MatchWithoutClick base={base} readOnly={readOnly} />
      <PersonalData readOnly={readOnly} />
      <ExchangeRates readOnly={readOnly} />
      <Erasure />
      <ShopifyPrivacyRequests />
      <Team base={base} cannot={whyNot(data.role, 'owner', 'invite people or change their access')} />
      <History base={base} />
    </>
  );
}

function WorkspaceSettings({ base, readOnly }: { base: string; readOnly: ReadOnlyReason | null }) {
  const { data } = useWorkspace();
  const queries = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: object) => api('PATCH', `${base}/settings`, body),
    meta: { done: 'Settings saved' },
    onSuccess: () => {
      setErrors({});
      void queries.invalidateQueries({ queryKey: ['workspace'] });
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const ws = data?.workspace;
  if (ws === undefined) return null;
  return (
    <section aria-labelledby="workspace-settings">
      <h2 id="workspace-settings">Attribution and phone numbers</h2>
      <Form
        label="Workspace settings"
        errors={errors}
        readOnly={readOnly}
        onSubmit={(form) => {
          const days = String(form.get('attributionWindowDays') ?? '');
          save.mutate({ attributionWindowDays: days === '' ? undefined : Number(days), defaultPhoneRegion: String(form.get('defaultPhoneRegion') ?? '') });
        }}
      >
        <div className="row">
          <Field name="attributionWindowDays" label="Attribution window (days)" type="number" defaultValue={String(ws.attributionWindowDays)} description="A click older than this does not earn the conversion (1 to 90)." />
          <Field name="defaultPhoneRegion" label="Default phone region" defaultValue={ws.defaultPhoneRegion} description="For phone numbers without a country code, e.g. US or GB." />
        </div>
        <FormError error={save.error instanceof ApiError && Object.keys(save.error.fieldErrors()).length === 0 ? save.error : null} />
        {readOnly === null && <Submit pending={save.isPending}>Save settings</Submit>}
      </Form>
    </section>
  );
}

function MatchWithoutClick({ base, readOnly }: { base: string; readOnly: ReadOnlyReason | null }) {
  const { data } = useWorkspace();
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: (matchWithoutClick: boolean) => api('PATCH', `${base}/settings`, { matchWithoutClick }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['workspace'] }),
  });
  const on = data?.workspace.matchWithoutClick;
  if (on === undefined) return null;
  return (
    <section aria-labelledby="without-click">
      <h2 id="without-click">Conversions without a click</h2>
      <p>
        By default only a conversion whose person clicked a TikTok ad within the attribution window is sent. When this is on, the others are sent too, without a click ID, for TikTok to match on the person's
        hashed email and phone, external ID, IP address, user agent and <code>_ttp</code> cookie. Each says it was sent without a click, and reports count them apart from click-attributed ones.
      </p>
      <div className="actions">
        <Switch className="switch" isSelected={on} isDisabled={readOnly !== null || save.isPending} aria-describedby={readOnly?.id} onChange={(value) => save.mutate(value)}>
          <div className="indicator" aria-hidden="true" /> Send conversions without a click: {on ? 'on' : 'off'}
        </Switch>
      </div>
      <FormError error={save.error} />
    </section>
  );
}

function Team({ base, cannot }: { base: string; cannot: string | null }) {
  const owner = cannot === null;
  const queries = useQueryClient();
  const members = useQuery({ queryKey: ['members', base], queryFn: () => get<MembersView>(`${base}/members`) });
  const [invited, setInvited] = useState<CreatedInvitationView | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refresh = () => queries.invalidateQueries({ queryKey: ['members', base] });
  const invite = useMutation({
    mutationFn: (body: InviteBody) => api<CreatedInvitationView>('POST', `${base}/invitations`, body),
    meta: { done: 'Invitation created' },
    onSuccess: (answer) => {
      setInvited(answer);
      setErrors({});
      void refresh();
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const change = useMutation({ mutationFn: ({ id, role }: { id: string; role: string }) => api('PATCH', `${base}/members/${id}`, { role }), meta: { done: 'Role changed' }, onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: string) => api('DELETE', `${base}/members/${id}`), meta: { done: 'Removed from the workspace' }, onSuccess: refresh });
  const withdraw = useMutation({ mutationFn: (id: string) => api('DELETE', `${base}/invitations/${id}`), meta: { done: 'Invitation withdrawn' }, onSuccess: refresh });
  if (members.isPending) return <Loading what="people" />;
  return (
    <section aria-labelledby="team">
      <h2 id="team">People with access</h2>
      <p className="muted">Owners can do everything, including people and API keys; editors change rules, settings, the TikTok connection and test mode; viewers read.</p>
      <FormError error={change.error ?? remove.error} />
      <ul className="cards">
        {members.data?.members.map((m) => (
          <li key={m.id} className="card">
            <div>
              <strong>{m.email}</strong> {m.name && <span className="muted">{m.name}</span>}
            </div>
            {owner ? (
              <div className="actions">
                <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => change.mutate({ id: m.id, role: e.target.value })}>
                  <option value="owner">owner</option>
                  <option value="editor">editor</option>
                  <option value="viewer">viewer</option>
                </select>
                <ConfirmButton label="Remove" title={`Remove ${m.email}?`} confirm="Remove" onConfirm={() => remove.mutate(m.id)}>
                  They lose access to this workspace at once.
                </ConfirmButton>
              </div>
            ) : (
              <span className="badge">{m.role}</span>
            )}
          </li>
        ))}
        {members.data?.invitations.map((i) => (
          <li key={i.id} className="card">
            <div>
              <strong>{i.email}</strong> <span className="muted">invited as {i.role}, until {dateTime(i.expiresAt)}, {DELIVERY[i.delivery]}</span>
            </div>
            {owner && (
              <ConfirmButton label="Withdraw" title={`Withdraw the invitation of ${i.email}?`} confirm="Withdraw" onConfirm={() => withdraw.mutate(i.id)}>
                The link stops working.
              </ConfirmButton>
            )}
          </li>
        ))}
      </ul>
      {!owner && <p className="muted">{cannot}</p>}
      {owner && (
        <Form label="Invite someone" errors={errors} onSubmit={(form) => invite.mutate({ email: String(form.get('email') ?? ''), role: String(form.get('role') ?? 'viewer') as InviteBody['role'] })}>
          <div className="row">
            <Field name="email" label="Email" type="email" />
            <label className="field">
              <span>Role</span>
              <select name="role" defaultValue="viewer">
                <option value="viewer">viewer</option>
                <option value="editor">editor</option>
                <option value="owner">owner</option>
              </select>
            </label>
            <Submit pending={invite.isPending}>Invite</Submit>
          </div>
        </Form>
      )}
      {invited && <Invited invitation={invited} />}
    </section>
  );
}

const DELIVERY: Record<InvitationView['delivery'], string> = { mail: 'by mail', operator: 'by whoever runs Signalbox', shown: 'link passed on by hand' };

/** What became of an invitation just made: mailed, not mailed (and what to do), or its link to pass on by hand. */
function Invited({ invitation }: { invitation: CreatedInvitationView }) {
  if (invitation.url !== null) {
    return (
      <div className="notice" role="status">
        <p>
          This Signalbox has no mail server set up, so the invitation was not mailed. Send {invitation.email} this link yourself; it works once, for 7 days:{' '}
          <code className="secret">{invitation.url}</code> <CopyButton text={invitation.url} />
        </p>
        <p>
          An account made with this link is not confirmed, as nothing shows that the mailbox is theirs. They confirm it by setting a new password with “Forgot password?” once mail is set
          up, or whoever runs Signalbox vouches for it.
        </p>
      </div>
    );
  }
  return (
    <p className="notice" role="status">
      {'sentTo' in invitation.mail
        ? `Mailed the invitation to ${invitation.mail.sentTo}: the link in it works once, for 7 days. Only their mailbox gets the link.`
        : `The invitation to ${invitation.email} could not be mailed: ${invitation.mail.notSent}. Withdraw it above and invite them again once mail works; whoever runs Signalbox can check its mail server.`}
    </p>
  );
}

function History({ base }: { base: string }) {
  const [beforeIds, setBeforeIds] = useState<string[]>([]);
  const before = beforeIds.at(-1);
  const log = useQuery({ queryKey: ['change-log', base, before], queryFn: () => get<ChangeLogPageView>(`${base}/change-log?limit=25${before ? `&beforeId=${before}` : ''}`) });
  return (
    <section aria-labelledby="change-log">
      <h2 id="change-log">Change log</h2>
      {log.isPending && <Loading what="the change log" />}
      {log.data && log.data.entries.length === 0 && <p className="empty">No change yet.</p>}
      <ul className="log">
        {log.data?.entries.map((e) => (
          <li key={e.id}>
            <strong>
              <Words text={e.summary} />
            </strong>
            <div className="muted">
              {dateTime(e.at)} by {e.actorName}
            </div>
            <FactDetails summary="What changed" facts={e.changes.map((c) => ({ label: c.field, value: `${c.before} → ${c.after}` }))} />
          </li>
        ))}
      </ul>
      <Pager newer={beforeIds.length > 0 ? () => setBeforeIds(beforeIds.slice(0, -1)) : null} older={log.data?.nextBeforeId ? () => setBeforeIds([...beforeIds, log.data?.nextBeforeId as string]) : null} />
    </section>
  );
}
