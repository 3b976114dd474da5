import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ApiError, get } from '../api';
import { Loading } from '../components/bits';
import { ConfirmButton } from '../components/ConfirmButton';
import { Field, Form, Submit } from '../components/Form';
import { FormError } from '../components/FormError';
import { dateTime } from '../format';
import { useMe } from '../session';
import type { LiveSessionsView } from '../../../contract/team-views';
import type { WorkspaceChangedView } from '../../../contract/views';
import type { PasswordChangeBody } from '../../../contract/console/account-routes';

export function AccountPage() {
  const me = useMe();
  const queries = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => get<LiveSessionsView>('sessions') });
  const revoke = useMutation({ mutationFn: (id: string) => api('DELETE', `sessions/${id}`), meta: { done: 'Signed out there' }, onSuccess: () => queries.invalidateQueries({ queryKey: ['sessions'] }) });
  const [passwordErrors, setPasswordErrors] = useState<Record<string, string>>({});
  const changePassword = useMutation({
    mutationFn: (body: PasswordChangeBody) => api('PUT', 'session/password', body),
    onSuccess: () => {
      setPasswordErrors({});
      return queries.invalidateQueries({ queryKey: ['sessions'] });
    },
    onError: (error) => setPasswordErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const navigate = useNavigate();
  const [workspaceErrors, setWorkspaceErrors] = useState<Record<string, string>>({});
  const createWorkspace = useMutation({
    mutationFn: (name: string) => api<WorkspaceChangedView>('POST', 'workspaces', { name }),
    meta: { done: 'Workspace created' },
    onSuccess: async ({ workspace }) => {
      await queries.invalidateQueries({ queryKey: ['me'] });
      await navigate(`/w/${workspace.id}/overview`);
    },
    onError: (error) => setWorkspaceErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  if (me.isPending || sessions.isPending) return <Loading what="your account" />;
  return (
    <main className="page narrow">
      <p>
        <Link to="/">← Back to the console</Link>
      </p>
      <h1>Your account</h1>
      <p>
        Signed in as <strong>{me.data?.user.email}</strong>.
      </p>
      <h2>Where you are signed in</h2>
      <ul className="cards">
        {sessions.data?.sessions.map((s) => (
          <li key={s.id} className="card">
            <div>
              <strong>{s.current ? 'This browser' : (s.userAgent ?? 'Unknown browser')}</strong>
              <div className="muted">
                from {s.address ?? 'an unknown address'} · signed in {dateTime(s.createdAt)} · last seen {dateTime(s.lastSeenAt)}
              </div>
            </div>
            {!s.current && (
              <ConfirmButton label="Sign out there" title="Sign this session out?" confirm="Sign out" onConfirm={() => revoke.mutate(s.id)}>
                The browser using it will have to sign in again.
              </ConfirmButton>
            )}
          </li>
        ))}
      </ul>
      <h2>Password</h2>
      <Form
        label="Change your password"
        errors={passwordErrors}
        onSubmit={(data) => changePassword.mutate({ currentPassword: String(data.get('currentPassword')), newPassword: String(data.get('newPassword')) })}
      >
        <Field name="currentPassword" label="Current password" type="password" autoComplete="current-password" isRequired />
        <Field name="newPassword" label="New password" type="password" autoComplete="new-password" description="At least 12 characters, not containing your email address." isRequired />
        <FormError error={changePassword.error instanceof ApiError && Object.keys(changePassword.error.fieldErrors()).length === 0 ? changePassword.error : null} />
        {changePassword.isSuccess && <p role="status">Password changed. Every other browser signed in as you has been signed out.</p>}
        <Submit pending={changePassword.isPending}>Change password</Submit>
      </Form>
      <h2>Another workspace</h2>
      <p className="muted">For another shop or brand: you own it, and invite others from its Settings page.</p>
      <Form label="Create a workspace" errors={workspaceErrors} onSubmit={(data) => createWorkspace.mutate(String(data.get('name') ?? ''))}>
        <Field name="name" label="Workspace name" isRequired />
        <FormError error={createWorkspace.error instanceof ApiError && Object.keys(createWorkspace.error.fieldErrors()).length === 0 ? createWorkspace.error : null} />
        <Submit pending={createWorkspace.isPending}>Create workspace</Submit>
      </Form>
    </main>
  );
}
