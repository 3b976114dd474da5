import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError, setCsrfToken } from '../api';
import { Field, Form, Submit } from '../components/Form';
import { FormError } from '../components/FormError';
import type { SessionView } from '../../../contract/views';
import type { SignInBody } from '../../../contract/console/account-routes';

/** Only paths of the console itself: `next` comes from the URL and must not send anyone elsewhere. */
function safeNext(next: string | null): string {
  return next !== null && next.startsWith('/console/') && !next.startsWith('//') ? next : '/console/';
}

export function SignInPage() {
  const [params] = useSearchParams();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const signIn = useMutation({
    mutationFn: (body: SignInBody) => api<SessionView>('POST', 'session', body),
    onSuccess: (me) => {
      setCsrfToken(me.csrfToken);
      window.location.assign(safeNext(params.get('next')));
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  return (
    <main className="page narrow sign-in">
      <h1>Sign in to Signalbox</h1>
      <Form label="Sign in" errors={errors} onSubmit={(data) => signIn.mutate({ email: String(data.get('email')), password: String(data.get('password')) })}>
        <Field name="email" label="Email" type="email" autoComplete="username" isRequired autoFocus />
        <Field name="password" label="Password" type="password" autoComplete="current-password" isRequired />
        <FormError error={signIn.error instanceof ApiError && Object.keys(signIn.error.fieldErrors()).length === 0 ? signIn.error : null} />
        <Submit pending={signIn.isPending}>Sign in</Submit>
      </Form>
      <p className="hint">
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <p className="hint">No account yet? An owner of your workspace sends you an invitation link.</p>
    </main>
  );
}
