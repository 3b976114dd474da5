import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '../api';
import { Field, Form, Submit } from '../components/Form';
import { FormError } from '../components/FormError';
import type { PasswordResetRequestedView } from '../../../contract/team-views';
import type { PasswordResetRequestBody } from '../../../contract/console/account-routes';

/** Asks for a link to set a new password; the answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ask = useMutation({
    mutationFn: (body: PasswordResetRequestBody) => api<PasswordResetRequestedView>('POST', 'password-resets', body),
    onSuccess: () => setErrors({}),
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  return (
    <main className="page narrow sign-in">
      <h1>Set a new password</h1>
      <p>Type the email address you sign in with. If it has an account, we mail it a link to set a new password.</p>
      <Form label="Ask for a link" errors={errors} onSubmit={(data) => ask.mutate({ email: String(data.get('email')) })}>
        <Field name="email" label="Email" type="email" autoComplete="username" isRequired autoFocus />
        <FormError error={ask.error instanceof ApiError && Object.keys(ask.error.fieldErrors()).length === 0 ? ask.error : null} />
        {ask.isSuccess && (
          <p className="notice" role="status">
            {ask.data.message}
          </p>
        )}
        <Submit pending={ask.isPending}>Send the link</Submit>
      </Form>
      <p className="hint">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </main>
  );
}
