import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ApiError } from '../../api';
import { Field, Form } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { dateTime, number } from '../../format';
import type { PastEventsLimitView, PastEventsPreviewView, PastEventsRunView } from '../../../../contract/past-event-views';

const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;
const lastDays = (days: number) => (days === 1 ? 'the last day' : `the last ${days} days`);

/** How far the rule's latest run of "send past events" got, in words. */
export function PastEventProgress({ run }: { run: PastEventsRunView | null }) {
  if (run === null) return null;
  if (run.status === 'running') {
    return (
      <p className="notice" role="status">
        Sending the past events of {lastDays(run.days)}: {number(run.conversionsCreated)} of {plural(run.conversionsToSend, 'conversion', 'conversions')} made so far.
      </p>
    );
  }
  if (run.status === 'rule_removed') return <p className="muted">Sending past events stopped: the rule was deleted.</p>;
  return (
    <p className="muted">
      Past events of {lastDays(run.days)} sent {dateTime(run.finishedAt)}: {plural(run.conversionsCreated, 'conversion', 'conversions')} made.
    </p>
  );
}

/**
 * "Send past events" for an editor: the rule's stored events of the last days that it maps now become conversions,
 * once each. Counted first; then a workflow on the worker makes them, and the page follows its progress.
 */
export function SendPastEvents({ base, event, limit, running }: { base: string; event: string; limit: PastEventsLimitView; running: boolean }) {
  const queries = useQueryClient();
  const path = `${base}/rules/${encodeURIComponent(event)}/send-past`;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<PastEventsPreviewView | null>(null);
  const count = useMutation({
    mutationFn: (days: number) => api<PastEventsPreviewView>('POST', path, { days, dryRun: true }),
    onSuccess: (answer) => {
      setErrors({});
      setPreview(answer);
    },
    onError: (error) => {
      setPreview(null);
      setErrors(error instanceof ApiError ? error.fieldErrors() : {});
    },
  });
  const send = useMutation({
    mutationFn: (days: number) => api('POST', path, { days }),
    meta: { done: 'Sending the past events: this page shows how far it got' },
    onSuccess: () => {
      setPreview(null);
      void queries.invalidateQueries({ queryKey: ['rules', base] });
    },
  });
  const submit = (data: FormData) => {
    const text = String(data.get('days') ?? '').trim();
    const days = Number(text);
    if (text === '' || !Number.isInteger(days)) {
      setErrors({ days: 'must be a whole number of days' });
      return;
    }
    count.mutate(days);
  };
  return (
    <details className="past-events">
      <summary>Send past events</summary>
      <p className="muted">
        Events stored before this rule existed or changed were not sent. Their conversions can be made now, each under the event ID it would have had, so TikTok counts an event your pixel also sent once; an event
        sent already is not sent again.
      </p>
      <Form label={`Send past events of ${event}`} errors={errors} onSubmit={submit}>
        <Field name="days" label="Days back" type="number" defaultValue={String(Math.min(7, limit.days))} description={`At most ${limit.days}: ${limit.because}.`} />
        <FormError error={count.error instanceof ApiError && Object.keys(count.error.fieldErrors()).length === 0 ? count.error : null} />
        <Button type="submit" className="button small" isPending={count.isPending}>
          Count them
        </Button>
      </Form>
      {preview && preview.conversions === 0 && <p>Nothing to send: every stored event of {lastDays(preview.days)} has its conversions already.</p>}
      {preview && preview.conversions > 0 && (
        <div className="actions">
          <p>
            {plural(preview.events, 'stored event', 'stored events')} of {lastDays(preview.days)} would be sent as {plural(preview.conversions, 'conversion', 'conversions')}.
          </p>
          {running ? (
            <p className="muted">Past events of this rule are being sent now: wait until they are done.</p>
          ) : (
            <Button className="button small" onPress={() => send.mutate(preview.days)} isPending={send.isPending}>
              Send {plural(preview.conversions, 'conversion', 'conversions')}
            </Button>
          )}
          <FormError error={send.error} />
        </div>
      )}
    </details>
  );
}
