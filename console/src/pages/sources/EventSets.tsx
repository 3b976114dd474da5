import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, get } from '../../api';
import { ErrorNote, Loading } from '../../components/bits';
import { Field, Form, Submit, type ReadOnlyReason } from '../../components/Form';
import { FormError } from '../../components/FormError';
import { EVENT_SET_KINDS, EVENT_SET_NAMES, eventSetPath, type EventSetKind } from '../../../../contract/event-set-kinds';
import type { EventSetChoicesView, TikTokConnectionStatusView } from '../../../../contract/tiktok-views';

const RECEIVES: Record<EventSetKind, string> = { offline: 'sales in stores and on the phone', crm: 'leads and sales from your CRM' };

interface Props {
  base: string;
  connection: TikTokConnectionStatusView;
  readOnly: ReadOnlyReason | null;
  /** Refreshes the connection and the lists; the choice shown is the one being saved until it resolves. */
  onChanged: () => Promise<unknown>;
}

/** The advertiser's Offline and CRM Event Sets, beside its pixel: chosen from TikTok's list, or by ID when TikTok cannot list them. */
export function TikTokEventSets(props: Props) {
  return (
    <>
      <h3>Sales off the website</h3>
      <p className="muted">Sales in your stores or on the phone, and leads from your CRM, go to TikTok’s event sets for them: skip these if you have neither.</p>
      <div className="columns">
        {EVENT_SET_KINDS.map((kind) => (
          <EventSetChoice key={kind} kind={kind} {...props} />
        ))}
      </div>
    </>
  );
}

function EventSetChoice({ base, kind, connection, readOnly, onChanged }: Props & { kind: EventSetKind }) {
  const name = EVENT_SET_NAMES[kind];
  const label = `${name} (receives ${RECEIVES[kind]})`;
  const path = `${base}/tiktok${eventSetPath(kind)}`;
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState<{ eventSetId: string | null } | null>(null);
  const listed = useQuery({ queryKey: ['event-sets', base, kind, connection.advertiserId], queryFn: () => get<EventSetChoicesView>(`${path}s`), enabled: connection.advertiserId !== null });
  const choose = useMutation({
    mutationFn: (eventSetId: string | null) => api('PUT', path, { eventSetId }),
    meta: { done: (eventSetId: string | null) => `${name} ${eventSetId === null ? 'removed' : 'chosen'}` },
    onSuccess: () => {
      setFieldErrors({});
      return onChanged();
    },
    onSettled: () => setSaving(null),
    onError: (error) => setFieldErrors(error instanceof ApiError ? error.fieldErrors() : {}),
  });
  const otherError = choose.error instanceof ApiError && choose.error.issues.length === 0 ? choose.error : null;
  const missingPermission = listed.error instanceof ApiError && listed.error.code === 'permission_missing' ? String(listed.error.details.description) : null;

  if (listed.data) {
    return (
      <div>
        <label className="field">
          <span>{label}</span>
          <select
            aria-label={name}
            aria-describedby={readOnly?.id}
            disabled={readOnly !== null || choose.isPending}
            value={(saving === null ? listed.data.selectedEventSetId : saving.eventSetId) ?? ''}
            onChange={(e) => {
              const eventSetId = e.target.value === '' ? null : e.target.value;
              setSaving({ eventSetId });
              choose.mutate(eventSetId);
            }}
          >
            <option value="">None</option>
            {listed.data.eventSets.map((set) => (
              <option key={set.eventSetId} value={set.eventSetId}>
                {set.eventSetName ? `${set.eventSetName} (${set.eventSetId})` : `${name} ${set.eventSetId}`}
              </option>
            ))}
          </select>
        </label>
        <FormError error={otherError} />
      </div>
    );
  }
  if (connection.advertiserId !== null && missingPermission === null) return listed.isError ? <ErrorNote error={listed.error} /> : <Loading what={`the ${name}s`} />;

  // TikTok cannot list them (no advertiser chosen, or no permission to): the owner gives the ID, as for the App ID.
  const selectedId = kind === 'offline' ? connection.offlineEventSetId : connection.crmEventSetId;
  return (
    <Form
      label={name}
      errors={fieldErrors}
      readOnly={readOnly}
      onSubmit={(data) => {
        const eventSetId = String(data.get('eventSetId') ?? '').trim();
        choose.mutate(eventSetId === '' ? null : eventSetId);
      }}
    >
      {missingPermission !== null && (
        <p className="notice">TikTok has not given Signalbox the permission to {missingPermission}, so they cannot be listed here. Connect again and keep that permission selected, or enter the ID that TikTok Events Manager shows.</p>
      )}
      <Field name="eventSetId" label={label} defaultValue={selectedId ?? ''} description={`The ${name}’s ID from TikTok Events Manager. Leave empty if you have none.`} />
      <FormError error={otherError} />
      {readOnly === null && <Submit>Save {name}</Submit>}
    </Form>
  );
}
