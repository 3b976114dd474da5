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
  const { email, role, workspaceName, expiresAt, accountExists } = invitation.data;
  return (
    <main className="page narrow">
      <h1>Join {workspaceName}</h1>
      <p>
        You are invited as <strong>{role}</strong> with <strong>{email}</strong>. The link works once, until {dateTime(expiresAt)}.
      </p>
      <Form
        label="Accept the invitation"
        errors={errors}
        onSubmit={(data) => accept.mutate({ password: String(data.get('password')), ...(accountExists ? {} : { name: String(data.get('name') ?? '') }) })}
      >
        {!accountExists && <Field name="name" label="Your name" autoComplete="name" autoFocus />}
        <Field
          name="password"
          label={accountExists ? 'Your password' : 'Choose a password'}
          type="password"
          autoComplete={accountExists ? 'current-password' : 'new-password'}
          description={accountExists ? 'You already have an account: prove it is you.' : 'At least 12 characters, not containing your email address.'}
          isRequired
        />
        <FormError error={accept.error instanceof ApiError && Object.keys(accept.error.fieldErrors()).length === 0 ? accept.error : null} />
        <Submit pending={accept.isPending}>Join {workspaceName}</Submit>
      </Form>
    </main>
  );
}
