import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from 'react-aria-components';
import { api, ApiError, get } from '../api';
import { ErrorNote, Loading } from '../components/bits';
import { ConfirmButton } from '../components/ConfirmButton';
import { Checkboxes, Field, Form, Submit } from '../components/Form';
import { FormError } from '../components/FormError';
import { dateTime, number } from '../format';
import { useWorkspace, whyNot } from '../session';
import { DestinationSelect, destinationText } from './rules/Destination';
import { PastEventProgress, SendPastEvents } from './rules/PastEvents';
import type { ConsoleRulesView as RulesAnswer } from '../../../contract/past-event-views';
import type { RuleValueView as Value } from '../../../contract/views';

type Rule = RulesAnswer['rules'][number];

const STANDARD: [string, string][] = [
  ['purchase', 'CompletePayment'],
  ['add_to_cart', 'AddToCart'],
  ['begin_checkout', 'InitiateCheckout'],
  ['signup', 'CompleteRegistration'],
  ['lead', 'SubmitForm'],
  ['view_content', 'ViewContent'],
  ['search', 'Search'],
];

const MAX_EVENT_NAME_LENGTH = 200;

const SERVER_ONLY = 'Send to TikTok from the server only (not through the pixel in the browser)';

const valueText = (value: Value) => (value.source === 'order_total' ? 'order total' : value.source === 'fixed' ? `${value.amount} ${value.currency}` : 'no value');

export function RulesPage() {
  const { base, data: workspace } = useWorkspace();
  const cannot = whyNot(workspace?.role, 'editor', 'add or change rules');
  const editor = cannot === null;
  const queries = useQueryClient();
  const rules = useQuery({
    queryKey: ['rules', base],
    queryFn: () => get<RulesAnswer>(`${base}/rules`),
    // While past events are being sent, their progress moves every batch.
    refetchInterval: (q) => (q.state.data?.rules.some((r) => r.pastEvents?.status === 'running') ? 1_500 : false),
  });
  // `?event=wishlist` (the event debugger's "create a rule" link) opens the form for that event.
  const [params] = useSearchParams();
  const [draft, setDraft] = useState<{ event: string; tiktokEvent: string } | null>(() => {
    const event = params.get('event');
    return event ? { event, tiktokEvent: STANDARD.find(([name]) => name === event)?.[1] ?? '' } : null;
  });
  // The rule the workspace's Shopify shop (or webhook) needs, else the usual first rule of a shop with code.
  const firstRule = rules.data?.neededRules[0] ?? { event: 'purchase', tiktokEvent: 'CompletePayment' };
  const remove = useMutation({
    mutationFn: (event: string) => api('DELETE', `${base}/rules/${encodeURIComponent(event)}`),
    meta: { done: 'Rule deleted' },
    onSuccess: () => queries.invalidateQueries({ queryKey: ['rules', base] }),
  });
  return (
    <>
      <h1>Conversion rules</h1>
      <p className="muted">Each rule turns one of your events into a TikTok conversion, with its value.</p>
      {rules.isPending && <Loading what="rules" />}
      {rules.isError && <ErrorNote error={rules.error} />}
      {rules.data && rules.data.rules.length === 0 && (
        <p className="empty">
          No rule yet: nothing is sent to TikTok. Add one below (<code>{firstRule.event}</code> → {firstRule.tiktokEvent} is the usual first).
        </p>
      )}
      {editor && rules.data && rules.data.neededRules.length > 0 && (
        <section aria-labelledby="needed">
          <h2 id="needed">Rules your sources need</h2>
          <ul>
            {rules.data.neededRules.map((needed) => (
              <li key={needed.event}>
                {needed.source} sends its events as <code>{needed.event}</code>: until a rule maps that name, none of them reaches TikTok.{' '}
                <Button className="button small" onPress={() => setDraft({ event: needed.event, tiktokEvent: needed.tiktokEvent })}>
                  Add the rule for {needed.event}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <ul className="cards">
        {rules.data?.rules.map((rule) => (
          <li key={rule.event} className="card rule">
            <div>
              <h3>
                <code>{rule.event}</code> → {[rule.tiktokEvent, ...rule.alsoSendAs].join(' + ')}
              </h3>
              {rule.alsoSendAs.length > 0 && (
                <p>
                  Each event is sent as {rule.alsoSendAs.length + 1} TikTok events, each a conversion of its own: {rule.tiktokEvent} under the event's event ID,{' '}
                  {rule.alsoSendAs.map((name, i) => (
                    <span key={name}>
                      {i > 0 && ', '}
                      {name} under <code>{`<event ID>:${name}`}</code>
                    </span>
                  ))}
                  .
                </p>
              )}
              {rule.warning && <p className="warn">{rule.warning}</p>}
              <p>Value: {valueText(rule.value)}</p>
              <p>
                {rule.serverOnly
                  ? 'Sent to TikTok from the server only, never through the pixel in the browser.'
                  : 'Sent to TikTok from the server, and also through the pixel in the browser when your pages use TikTok’s pixel.'}
              </p>
              <p>{destinationText(rule.destination)}</p>
              <p>
                {number(rule.eventsLast7Days)} matching event{rule.eventsLast7Days === 1 ? '' : 's'} in the last 7 days{rule.sample ? `, the latest at ${dateTime(rule.sample.receivedAt)}` : ''}.
              </p>
              {rule.sample && (
                <details>
                  <summary>Latest event</summary>
                  <pre className="code">{JSON.stringify(rule.sample.message, null, 2)}</pre>
                </details>
              )}
              <PastEventProgress run={rule.pastEvents} />
              {editor && rules.data && <SendPastEvents base={base} event={rule.event} limit={rules.data.pastEventLimit} running={rule.pastEvents?.status === 'running'} />}
            </div>
            {editor && (
              <div className="actions">
                <Button className="button small" onPress={() => setDraft({ event: rule.event, tiktokEvent: rule.tiktokEvent })}>
                  Edit
                </Button>
                <ConfirmButton label="Delete" title={
                    <>
                      Delete the rule for <code>{rule.event}</code>?
                    </>
                  } confirm="Delete" onConfirm={() => remove.mutate(rule.event)}>
                  New <code>{rule.event}</code> events will no longer be sent to TikTok.
                </ConfirmButton>
              </div>
            )}
          </li>
        ))}
      </ul>
      {rules.data && rules.data.unmappedEvents.length > 0 && (
        <section aria-labelledby="unmapped">
          <h2 id="unmapped">Events without a rule (last 7 days)</h2>
          <ul>
            {rules.data.unmappedEvents.map((u) => (
              <li key={u.event}>
                <code>{u.event}</code> ({number(u.eventsLast7Days)}){' '}
                {u.warning && <span className="warn">{u.warning} </span>}
                {editor && (
                  <Button className="button small" onPress={() => setDraft({ event: u.event, tiktokEvent: u.suggestedTiktokEvent })}>
                    Add a rule
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {editor ? (
        <RuleForm
          key={draft?.event ?? 'new'}
          base={base}
          draft={draft}
          warning={[...(rules.data?.unmappedEvents ?? []), ...(rules.data?.rules ?? [])].find((known) => known.event === draft?.event)?.warning ?? null}
          example={firstRule.event}
          rules={rules.data?.rules ?? []}
          standardEvents={rules.data?.tiktokStandardEvents ?? []}
          onSaved={() => setDraft(null)}
        />
      ) : (
        <p className="muted">{cannot}</p>
      )}
    </>
  );
}

function RuleForm({
  base,
  draft,
  warning,
  example,
  rules,
  standardEvents,
  onSaved,
}: {
  base: string;
  draft: { event: string; tiktokEvent: string } | null;
  /** Why the draft's event should not become a conversion, if it should not. */
  warning: string | null;
  /** An event name to show as the example: the one the workspace's sources need. */
  example: string;
  rules: Rule[];
  standardEvents: string[];
  onSaved: () => void;
}) {
  const queries = useQueryClient();
  const existing = rules.find((r) => r.event === draft?.event);
  const [source, setSource] = useState<Value['source']>(existing?.value.source ?? 'order_total');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: ({ event, body }: { event: string; body: object }) => api('PUT', `${base}/rules/${encodeURIComponent(event)}`, body),
    meta: { done: 'Rule saved' },
    onSuccess: () => {
      setErrors({});
      onSaved();
      void queries.invalidateQueries({ queryKey: ['rules', base] });
    },
    onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const submit = (data: FormData) => {
    const event = String(data.get('event') ?? '').trim();
    if (event === '') {
      setErrors({ event: `is required: the event's name as it arrives, such as ${example}` });
      return;
    }
    // The API's limit too (an event name as ingest accepts it); checked here because the name goes in the URL.
    if (event.length > MAX_EVENT_NAME_LENGTH) {
      setErrors({ event: `must be at most ${MAX_EVENT_NAME_LENGTH} characters` });
      return;
    }
    const tiktokEvent = String(data.get('tiktokEvent') ?? '').trim();
    const amount = String(data.get('value.amount') ?? '').trim();
    const currency = String(data.get('value.currency') ?? '').trim();
    const value = source === 'fixed' ? { source, amount: amount === '' ? undefined : Number(amount), currency: currency === '' ? undefined : currency } : source === 'order_total' && currency !== '' ? { source, currency } : { source };
    const alsoSendAs = data.getAll('alsoSendAs').map(String);
    const serverOnly = data.has('serverOnly');
    const destination = String(data.get('destination') ?? 'auto');
    save.mutate({ event, body: { ...(tiktokEvent === '' ? {} : { tiktokEvent }), alsoSendAs, value, serverOnly, destination } });
  };
  const fixed = existing?.value.source === 'fixed' ? existing.value : undefined;
  return (
    <section aria-labelledby="rule-form">
      <h2 id="rule-form">
        {existing ? (
          <>
            Edit the rule for <code>{existing.event}</code>
          </>
        ) : (
          'Add a rule'
        )}
      </h2>
      {warning && (
        <p className="warn" role="note">
          <strong>Think twice: </strong>
          {warning}
        </p>
      )}
      <Form label="Conversion rule" errors={errors} onSubmit={submit}>
        <div className="row">
          <Field
            name="event"
            label="Your event"
            defaultValue={draft?.event ?? ''}
            placeholder={example}
            description="The event's name as it arrives (the event debugger shows each one): Order Completed for a Shopify shop's orders."
          />
          <Field name="tiktokEvent" label="TikTok event" defaultValue={draft?.tiktokEvent ?? ''} placeholder="CompletePayment" description="Empty: the standard event for the name, else a custom event." />
        </div>
        <p className="muted">
          Standard:{' '}
          {STANDARD.map(([from, to], i) => (
            <span key={from}>
              {i > 0 && ' · '}
              <code>{from}</code> → {to}
            </span>
          ))}
        </p>
        <Checkboxes
          name="alsoSendAs"
          label="Also send as (optional, up to 3)"
          options={standardEvents}
          defaultValue={existing?.alsoSendAs ?? []}
          description="Each event is also sent as these TikTok events, each a conversion of its own whose event ID is the event's followed by a colon and the name. The TikTok event above keeps the plain event ID, the one your browser pixel shares."
        />
        <fieldset className="radios">
          <legend>Value</legend>
          {(
            [
              ['order_total', 'The order total of each event (purchases)'],
              ['fixed', 'A fixed amount (leads, signups)'],
              ['none', 'No value'],
            ] as const
          ).map(([key, label]) => (
            <label key={key}>
              <input type="radio" name="value.source" value={key} checked={source === key} onChange={() => setSource(key)} /> {label}
            </label>
          ))}
        </fieldset>
        {source !== 'none' && (
          <div className="row">
            {source === 'fixed' && <Field name="value.amount" label="Amount" type="number" defaultValue={fixed ? String(fixed.amount) : ''} />}
            <Field name="value.currency" label="Currency" defaultValue={fixed?.currency ?? ''} placeholder="USD" description={source === 'order_total' ? "Only if your events carry none." : undefined} />
          </div>
        )}
        <Checkboxes
          name="serverOnly"
          label="Pixel in the browser"
          options={[SERVER_ONLY]}
          defaultValue={existing?.serverOnly ? [SERVER_ONLY] : []}
          description="Tick it for an event the pixel on your pages should not report, such as a sale your server confirms later (a payment that clears after checkout): TikTok then hears of it only from your server, once it is confirmed."
        />
        <DestinationSelect defaultValue={existing?.destination ?? 'auto'} />
        <FormError error={save.error instanceof ApiError && Object.keys(save.error.fieldErrors()).length === 0 ? save.error : null} />
        <Submit pending={save.isPending}>Save rule</Submit>
      </Form>
    </section>
  );
}
