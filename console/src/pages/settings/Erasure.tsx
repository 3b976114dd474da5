import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ApiError, get } from '../../api';
import { Field, Form, useReadOnly } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { FactDetails } from '../../components/bits';
import { LazyModal } from '../../components/LazyModal';
import { dateTime } from '../../format';
import { useWorkspace, whyNot } from '../../session';
import type { ConsoleErasureLogView, ConsoleErasureView } from '../../../../contract/erasure-views';

const BY = [
  { name: 'email', label: 'Their email', noun: 'the email' },
  { name: 'phone', label: 'Their phone', noun: 'the phone' },
  { name: 'userId', label: 'Their user ID', noun: 'the user ID' },
  { name: 'anonymousId', label: 'Their anonymous ID', noun: 'the anonymous ID' },
] as const;

const facts = (counts: ConsoleErasureView['counts']) => counts.map((c) => ({ label: c.field, value: c.after }));

/** Privacy requests (GDPR art. 17, CCPA): an owner erases everything Signalbox holds about one person. */
export function Erasure() {
  const { base, data } = useWorkspace();
  const queries = useQueryClient();
  const cannot = whyNot(data?.role, 'owner', 'erase people');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [subject, setSubject] = useState<Record<string, string> | null>(null);
  const log = useQuery({ queryKey: ['erasures', base], queryFn: () => get<ConsoleErasureLogView>(`${base}/erasures`) });
  const erase = useMutation({
    mutationFn: (body: Record<string, string>) => api<ConsoleErasureView>('POST', `${base}/erasures`, body),
    meta: { done: 'The person is erased' },
    onSuccess: () => {
      setErrors({});
      void queries.invalidateQueries({ queryKey: ['erasures', base] });
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
    onSettled: () => setSubject(null),
  });
  const named = subject === null ? '' : Object.entries(subject).map(([field, value]) => `${BY.find((b) => b.name === field)?.noun ?? field} ${value}`).join(' and ');
  return (
    <section aria-labelledby="erasure">
      <h2 id="erasure">Erase a person</h2>
      <p className="muted">
        For a privacy request (GDPR, CCPA): everything linked to what you give (their events, visitor profiles, clicks and identity links) is deleted in one step. Conversions stay counted, without anything that identifies
        the person. The log below keeps only who asked and when, never whom. It cannot be undone.
      </p>
      {/* A new, empty form after each erasure: the identifiers typed in are not left on the page. */}
      <Form
        key={erase.data?.id ?? 'none'}
        label="Erase a person"
        errors={errors}
        readOnly={cannot}
        onSubmit={(form) => {
          const given = Object.fromEntries(BY.flatMap(({ name }) => (String(form.get(name) ?? '').trim() === '' ? [] : [[name, String(form.get(name)).trim()]])));
          setSubject(given);
        }}
      >
        <div className="row">
          {BY.map((b) => (
            <Field key={b.name} name={b.name} label={b.label} type={b.name === 'email' ? 'email' : 'text'} />
          ))}
        </div>
        <FormError error={erase.error instanceof ApiError && Object.keys(errors).length === 0 ? erase.error : null} />
        <EraseButton pending={erase.isPending} />
      </Form>
      {erase.data && (
        <div className="notice" role="status">
          {erase.data.summary}.{erase.data.truncated ? ' The walk stopped at its limit: erase again with the identifiers it could not reach.' : ''}
          <FactDetails summary="What was found and removed" facts={facts(erase.data.counts)} />
        </div>
      )}
      <LazyModal isOpen={subject !== null} title="Erase this person?" onClose={() => setSubject(null)}>
        {subject !== null && Object.keys(subject).length === 0 ? (
          <p>Give at least one of email, phone, user ID or anonymous ID.</p>
        ) : (
          <p>
            Everything linked to {named} is deleted now, in every device and account linked to it. This cannot be undone.
          </p>
        )}
        <div className="actions">
          <Button className="button" onPress={() => setSubject(null)} autoFocus>
            Cancel
          </Button>
          <Button className="button danger" isDisabled={subject === null || Object.keys(subject).length === 0} isPending={erase.isPending} onPress={() => subject && erase.mutate(subject)}>
            Erase for good
          </Button>
        </div>
      </LazyModal>
      <h3>Erasures</h3>
      {log.data?.erasures.length === 0 && <p className="empty">None yet.</p>}
      <ul className="erasure-log">
        {log.data?.erasures.map((e) => (
          <li key={e.id}>
            <strong>Erased one person</strong>
            <div className="muted">
              {dateTime(e.requestedAt)} by {e.actorName}
            </div>
            <FactDetails summary="What was removed" facts={facts(e.counts)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Erase…", disabled with the form's reason for a role that may not erase. */
function EraseButton({ pending }: { pending: boolean }) {
  const readOnly = useReadOnly();
  return (
    <div className="actions">
      <Button type="submit" className="button danger" isDisabled={readOnly !== null} aria-describedby={readOnly?.id} isPending={pending}>
        Erase…
      </Button>
    </div>
  );
}
