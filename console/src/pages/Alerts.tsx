import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useId, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ApiError, get } from '../api';
import { Loading, WhyNot } from '../components/bits';
import { DataTable } from '../components/DataTable';
import { Checkboxes, Field, Form, RoleNote, Submit, useReadOnlyReason, type ReadOnlyReason } from '../components/Form';
import { FormError } from '../components/FormError';
import { dateTime } from '../format';
import { useWorkspace, whyNot } from '../session';
import type { AlertIncidentView as Incident, AlertsView, SavedAlertSettingsView, TestAlertView } from '../../../contract/alert-views';

const TITLES: Record<Incident['condition'], string> = {
  reauthorization: 'TikTok needs to be connected again',
  failed_deliveries: 'Deliveries to TikTok are failing',
  no_events: 'No events are arriving',
};
const WHEN = { reauthorization: 'TikTok needs connecting again', failures: 'Deliveries fail', silence: 'No events arrive' } as const;
const BY = { email: 'Email', webhook: 'Webhook (Slack-compatible)' } as const;

function channelText(incident: Incident, channel: Incident['notifications'][number]['channel']): string {
  const notification = incident.notifications.find((n) => n.channel === channel);
  if (notification === undefined) return 'not set up then';
  if (notification.sentAt !== null) return `sent ${dateTime(notification.sentAt)}`;
  if (notification.lastError !== null) return `not sent (${notification.attempts === 1 ? '1 try' : `${notification.attempts} tries`}): ${notification.lastError}; tried again every minute`;
  return 'sending…';
}

const columns: ColumnDef<Incident, unknown>[] = [
  {
    header: 'What',
    accessorKey: 'condition',
    cell: (c) => (
      <>
        <strong>{TITLES[c.row.original.condition]}</strong>
        <div className="muted wraps">{c.row.original.detail}</div>
      </>
    ),
  },
  { header: 'Started', accessorKey: 'openedAt', cell: (c) => dateTime(c.row.original.openedAt) },
  { header: 'Ended', accessorKey: 'closedAt', cell: (c) => (c.row.original.closedAt === null ? <span className="badge failed">ongoing</span> : dateTime(c.row.original.closedAt)) },
  {
    header: 'Told',
    id: 'told',
    cell: (c) => (
      <ul className="plain-list wraps">
        <li>Email: {channelText(c.row.original, 'email')}</li>
        <li>Webhook: {channelText(c.row.original, 'webhook')}</li>
      </ul>
    ),
  },
];

/** Field errors of the list's entries (`emailRecipients[2]`) belong beside the list's one field. */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(Object.entries(error.fieldErrors()).map(([field, message]) => [field.replace(/\[\d+\]$/, ''), message]));
}

export function AlertsPage() {
  const { base, data: workspace } = useWorkspace();
  const queries = useQueryClient();
  const readOnly = useReadOnlyReason(whyNot(workspace?.role, 'editor', 'change the alerts or send a test alert'));
  const alerts = useQuery({ queryKey: ['alerts', base], queryFn: () => get<AlertsView>(`${base}/alerts`), refetchInterval: 30_000 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: object) => api<SavedAlertSettingsView>('PUT', `${base}/alerts`, body),
    meta: { done: 'Alerts saved' },
    onSuccess: () => {
      setErrors({});
      void queries.invalidateQueries({ queryKey: ['alerts', base] });
    },
    onError: (error) => setErrors(fieldErrors(error)),
  });
  if (alerts.isPending || workspace === undefined) return <Loading what="the alerts" />;
  if (alerts.data === undefined) return <FormError error={alerts.error} />;
  const { settings, owners, incidents } = alerts.data;
  const when = [settings.onReauthorization && WHEN.reauthorization, settings.failedSharePercent !== null && WHEN.failures, settings.silenceMinutes !== null && WHEN.silence].filter((v) => v !== false);
  const by = [settings.emailEnabled && BY.email, settings.webhook !== null && BY.webhook].filter((v) => v !== false);

  return (
    <>
      <h1>Alerts</h1>
      <p>Signalbox tells you once when something needs you, by email or in a chat channel, and once more only when it happens again after it was fixed. It checks every minute.</p>
      <section aria-labelledby="alert-settings">
        <h2 id="alert-settings">When and how</h2>
        <RoleNote readOnly={readOnly} />
        <Form
          label="Alert settings"
          errors={errors}
          readOnly={readOnly}
          onSubmit={(form) => {
            const chosen = form.getAll('when');
            const channels = form.getAll('by');
            const webhookUrl = String(form.get('webhookUrl') ?? '').trim();
            // Text that is no number goes as it is, for the server to say what it must be.
            const number = (name: string) => {
              const text = String(form.get(name) ?? '').trim();
              return text === '' || Number.isNaN(Number(text)) ? text : Number(text);
            };
            save.mutate({
              onReauthorization: chosen.includes(WHEN.reauthorization),
              failedSharePercent: chosen.includes(WHEN.failures) ? number('failedSharePercent') : null,
              silenceMinutes: chosen.includes(WHEN.silence) ? number('silenceMinutes') : null,
              emailEnabled: channels.includes(BY.email),
              emailRecipients: String(form.get('emailRecipients') ?? '')
                .split(/[\s,;]+/)
                .filter((address) => address !== ''),
              webhookUrl: !channels.includes(BY.webhook) ? null : webhookUrl === '' ? undefined : webhookUrl,
            });
          }}
        >
          <fieldset className="plain">
            <Checkboxes name="when" label="Alert when" options={Object.values(WHEN)} defaultValue={when} />
            <div className="row">
              <Field name="failedSharePercent" label="Failed deliveries in the last hour (%)" type="number" defaultValue={String(settings.failedSharePercent ?? 20)} description="Counted once at least 5 conversions ended in the hour." />
              <Field name="silenceMinutes" label="Minutes without an event" type="number" defaultValue={String(settings.silenceMinutes ?? 60)} description="From 5 minutes to 7 days (10080)." />
            </div>
            <Checkboxes name="by" label="Tell us by" options={Object.values(BY)} defaultValue={by} />
            <Field
              name="emailRecipients"
              label="Email addresses"
              defaultValue={settings.emailRecipients.join(', ')}
              description={`Separated by commas. Empty: the workspace's owners (${owners.join(', ') || 'none yet'}).`}
            />
            <Field
              name="webhookUrl"
              label="Webhook URL"
              type="url"
              placeholder="https://hooks.slack.com/services/…"
              description={settings.webhook === null ? 'A Slack incoming webhook, or any URL taking {"text": "…"}.' : `Saved: ${settings.webhook}. Leave empty to keep it; untick Webhook to remove it.`}
            />
            <FormError error={save.error instanceof ApiError && Object.keys(save.error.fieldErrors()).length === 0 ? save.error : null} />
            <Submit pending={save.isPending}>Save alerts</Submit>
          </fieldset>
        </Form>
      </section>
      <TestAlert base={base} readOnly={readOnly} channels={by.length} />
      <section aria-labelledby="incidents">
        <h2 id="incidents">Incidents</h2>
        <DataTable rows={incidents} columns={columns} empty="No incident yet: nothing has needed you." caption="The latest 50, newest first" />
      </section>
    </>
  );
}

/** "Send a test alert": through the saved channels, on a worker, as an incident's alert goes; then how each channel fared. */
function TestAlert({ base, readOnly, channels }: { base: string; readOnly: ReadOnlyReason | null; channels: number }) {
  const whyId = useId();
  const send = useMutation({ mutationFn: () => api<TestAlertView>('POST', `${base}/alerts/test`) });
  const why = readOnly ?? (channels === 0 ? { reason: 'Alerts go nowhere yet: tick Email or Webhook above and save, then send a test alert.', id: whyId } : null);
  return (
    <section aria-labelledby="test-alert">
      <h2 id="test-alert">Test the alerts</h2>
      <p>Sends a test alert through the saved channels, the way a real one goes, and says how each went.</p>
      <div className="actions">
        <Button className="button" onPress={() => send.mutate()} isPending={send.isPending} isDisabled={why !== null} aria-describedby={why?.id}>
          Send a test alert
        </Button>
        {why !== null && why !== readOnly && <WhyNot id={why.id}>{why.reason}</WhyNot>}
      </div>
      <FormError error={send.error} />
      {send.data && (
        <ul className="plain-list outcomes" aria-live="polite">
          {send.data.outcomes.map((o) => (
            <li key={o.channel} className={o.sent ? 'ok' : 'bad'}>
              {o.channel === 'email' ? `Email to ${o.recipients.join(', ')}` : 'Webhook'}: {o.sent ? 'sent' : `not sent: ${o.error ?? 'no reason given'}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
