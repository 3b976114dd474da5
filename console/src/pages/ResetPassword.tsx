import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError, get } from '../api';
import { Loading } from '../components/bits';
import { Field, Form, Submit } from '../components/Form';
import { FormError } from '../components/FormError';
import type { PasswordResetLinkView } from '../../../contract/team-views';
import type { PasswordResetBody } from '../../../contract/console/account-routes';

/** The page a reset mail links to: the new password, then sign in with it (every session was ended). */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const link = useQuery({ queryKey: ['password-reset', token], queryFn: () => get<PasswordResetLinkView>(`password-resets/${encodeURIComponent(token)}`), retry: false });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const reset = useMutation({
    mutationFn: (body: PasswordResetBody) => api('POST', `password-resets/${encodeURIComponent(token)}`, body),
    onSuccess: () => setErrors({}),
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  if (link.isPending) return <Loading what="the link" />;
  return (
    <main className="page narrow sign-in">
      <h1>Set a new password</h1>
      {link.isError && !reset.isSuccess ? (
        <>
          <FormError error={link.error} />
          <p>
            <Link to="/forgot-password">Ask for a new link</Link>
          </p>
        </>
      ) : reset.isSuccess ? (
        <>
          <p className="notice" role="status">
            Your password is set. Every browser that was signed in as you has been signed out.
          </p>
          <p>
            <Link to="/sign-in">Sign in with it</Link>
          </p>
        </>
      ) : (
        <Form label="Your new password" errors={errors} onSubmit={(data) => reset.mutate({ newPassword: String(data.get('newPassword')) })}>
          <p>
            For <strong>{link.data?.email}</strong>.
          </p>
          <input type="email" name="username" autoComplete="username" value={link.data?.email ?? ''} readOnly hidden />
          <Field name="newPassword" label="New password" type="password" autoComplete="new-password" description="At least 12 characters, not containing your email address." isRequired autoFocus />
          <FormError error={reset.error instanceof ApiError && Object.keys(reset.error.fieldErrors()).length === 0 ? reset.error : null} />
          <Submit pending={reset.isPending}>Set the password</Submit>
        </Form>
      )}
    </main>
  );
}
