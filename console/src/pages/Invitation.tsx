import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, ApiError, get, setCsrfToken } from '../api';
import { ErrorNote, Loading } from '../components/bits';
import { Field, Form, Submit } from '../components/Form';
import { FormError } from '../components/FormError';
import { dateTime } from '../format';
import type { PendingInvitationView } from '../../../contract/team-views';
import type { SessionView } from '../../../contract/views';
import type { AcceptInvitationBody } from '../../../contract/console/account-routes';

const RULES = 'At least 12 characters, not containing your email address.';

/** The password field (and the name field, when an account may be made) for what the invitation asks. */
const ASKED: Record<PendingInvitationView['password'], { name: string | null; label: string; autoComplete: string; description: string }> = {
  choose: { name: 'Your name', label: 'Choose a password', autoComplete: 'new-password', description: RULES },
  current: { name: null, label: 'Your password', autoComplete: 'current-password', description: 'You already have a Signalbox account with this address: type its password.' },
  replace: {
    name: 'Your name',
    label: 'Choose a new password',
    autoComplete: 'new-password',
    description: `A Signalbox account with this address was made before, without proof that the mailbox is yours (perhaps by you, with a link passed on by hand). Your new password replaces its old one, and everyone signed in to it is signed out. ${RULES}`,
  },
  'current-or-choose': {
    name: 'Your name (for a new account)',
    label: 'Password',
    autoComplete: 'current-password',
    description: `If you already have a Signalbox account with this address, type its password; otherwise choose one. ${RULES}`,
  },
};

export function InvitationPage() {
  const { token = '' } = useParams();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invitation = useQuery({ queryKey: ['invitation', token], queryFn: () => get<PendingInvitationView>(`invitations/${encodeURIComponent(token)}`) });
  const accept = useMutation({
    mutationFn: (body: AcceptInvitationBody) => api<SessionView>('POST', `invitations/${encodeURIComponent(token)}/accept`, body),
    onSuccess: (me) => {
      setCsrfToken(me.csrfToken);
      const joined = me.workspaces.find((w) => w.workspaceName === invitation.data?.workspaceName) ?? me.workspaces[0];
      window.location.assign(joined ? `/console/w/${joined.workspaceId}/overview` : '/console/');
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  if (invitation.isPending) return <Loading what="the invitation" />;
  if (invitation.isError) {
    return (
      <main className="page narrow">
        <h1>Invitation</h1>
        <ErrorNote error={invitation.error} />
        <p>
          <a href="/console/sign-in">Sign in</a>
        </p>
      </main>
    );
  }
  const { email, role, workspaceName, expiresAt, password } = invitation.data;
  const asked = ASKED[password];
  return (
    <main className="page narrow">
      <h1>Join {workspaceName}</h1>
      <p>
        You are invited as <strong>{role}</strong> with <strong>{email}</strong>. The link works once, until {dateTime(expiresAt)}.
      </p>
      <Form
        label="Accept the invitation"
        errors={errors}
        onSubmit={(data) => accept.mutate({ password: String(data.get('password')), ...(asked.name === null ? {} : { name: String(data.get('name') ?? '') }) })}
      >
        {asked.name !== null && <Field name="name" label={asked.name} autoComplete="name" autoFocus />}
        <Field name="password" label={asked.label} type="password" autoComplete={asked.autoComplete} description={asked.description} isRequired />
        <FormError error={accept.error instanceof ApiError && Object.keys(accept.error.fieldErrors()).length === 0 ? accept.error : null} />
        <Submit pending={accept.isPending}>Join {workspaceName}</Submit>
      </Form>
    </main>
  );
}
