import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Switch } from 'react-aria-components';
import { api, ApiError } from '../../api';
import { Field, Form, Submit, type ReadOnlyReason } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { useWorkspace } from '../../session';

/** How long raw events and conversions are kept, and whether the tracking tag waits for the visitor's consent. */
/** `readOnly`: the Settings page's reason, for a role that may only read them. */
export function PersonalData({ readOnly }: { readOnly: ReadOnlyReason | null }) {
  const { base, data } = useWorkspace();
  const queries = useQueryClient();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const saved = () => void queries.invalidateQueries({ queryKey: ['workspace'] });
  const retention = useMutation({
    // Looser than the contract's body on purpose: text that is not a number goes as written, for the server to name it.
    mutationFn: (days: { eventRetentionDays: number | string; conversionRetentionDays: number | string }) => api('PATCH', `${base}/settings`, days),
    meta: { done: 'Retention saved' },
    onSuccess: () => {
      setErrors({});
      saved();
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const consent = useMutation({
    mutationFn: (consentRequired: boolean) => api('PATCH', `${base}/settings`, { consentRequired }),
    meta: { done: (on: never) => (on ? 'Consent is now required before tracking' : 'Consent is no longer required') },
    onSuccess: saved,
  });
  const ws = data?.workspace;
  if (ws === undefined) return null;
  return (
    <section aria-labelledby="personal-data">
      <h2 id="personal-data">Personal data</h2>
      <Form
        label="Retention"
        errors={errors}
        readOnly={readOnly}
        onSubmit={(form) => {
          const days = (name: string) => {
            const text = String(form.get(name) ?? '').trim();
            return /^\d+$/.test(text) ? Number(text) : text;
          };
          retention.mutate({ eventRetentionDays: days('eventRetentionDays'), conversionRetentionDays: days('conversionRetentionDays') });
        }}
      >
        <div className="row short">
          <Field
            name="eventRetentionDays"
            label="Keep raw events for (days)"
            type="number"
            defaultValue={String(ws.eventRetentionDays)}
            description="1 to 3650. Older events are deleted every hour, or stripped to their type, name and time when a conversion refers to them."
          />
          <Field
            name="conversionRetentionDays"
            label="Keep conversions for (days)"
            type="number"
            defaultValue={String(ws.conversionRetentionDays)}
            description="28 to 3650. Older sent, skipped and failed conversions are deleted with their timeline; the daily figures of reports stay."
          />
        </div>
        <FormError error={retention.error instanceof ApiError && Object.keys(retention.error.fieldErrors()).length === 0 ? retention.error : null} />
        <div className="actions">
          <Submit pending={retention.isPending}>Save retention</Submit>
        </div>
      </Form>
      <h3>Consent</h3>
      <p className="muted">
        When consent is required, the tracking tag stores and sends nothing until your consent banner calls <code>signalbox.consent.grant()</code> (pages pick a change up within 5 minutes). Events your servers send are
        not held back: send them only with consent.
      </p>
      <div className="actions">
        <Switch className="switch" isSelected={ws.consentRequired} isDisabled={readOnly !== null || consent.isPending} aria-describedby={readOnly?.id} onChange={(value) => consent.mutate(value)}>
          <div className="indicator" aria-hidden="true" /> Require consent before the tag tracks: {ws.consentRequired ? 'on' : 'off'}
        </Switch>
      </div>
      <FormError error={consent.error} />
    </section>
  );
}
