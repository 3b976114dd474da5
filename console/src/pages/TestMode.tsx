import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button, Switch } from 'react-aria-components';
import { api, ApiError } from '../api';
import { WhyNot } from '../components/bits';
import { Field, Form, RoleNote, Submit, useReadOnlyReason } from '../components/Form';
import { FormError } from '../components/FormError';
import { useWorkspace, whyNot } from '../session';
import type { TestConversionView } from '../../../contract/tiktok-views';
import type { SettingsChangesBody } from '../../../contract/workspaces';

export function TestModePage() {
  const { base, data } = useWorkspace();
  const queries = useQueryClient();
  const readOnly = useReadOnlyReason(whyNot(data?.role, 'editor', 'change test mode or send a test conversion'));
  const sendWhy = useId();
  const workspace = data?.workspace;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: SettingsChangesBody) => api('PATCH', `${base}/settings`, body),
    meta: { done: ({ testMode }: { testMode?: boolean }) => (testMode === undefined ? 'Test event code saved' : `Test mode is ${testMode ? 'on' : 'off'}`) },
    onSuccess: () => {
      setErrors({});
      void queries.invalidateQueries({ queryKey: ['workspace'] });
    },
    onError: (error) => {
      if (!(error instanceof ApiError)) return;
      const fields = error.fieldErrors();
      // "testEventCode is required while testMode is true" belongs beside the code.
      setErrors(fields.testEventCode ? fields : { testEventCode: error.message.replace(/^testEventCode /, '') });
    },
  });
  const send = useMutation({ mutationFn: () => api<TestConversionView>('POST', `${base}/test-conversion`) });
  if (workspace === undefined) return null;
  const sendBlocked = readOnly ?? (workspace.testEventCode === null ? { reason: 'Save a test event code first.', id: sendWhy } : null);
  const pixel = data?.tiktok?.pixelName ? `“${data.tiktok.pixelName}”` : null;
  return (
    <>
      <h1>Test mode</h1>
      <p>While test mode is on, every conversion goes to TikTok with your test event code: it shows in Events Manager's Test Events view and counts for no campaign.</p>
      <RoleNote readOnly={readOnly} />
      <Form label="Test mode" errors={errors} readOnly={readOnly} onSubmit={(form) => save.mutate({ testEventCode: String(form.get('testEventCode') ?? '').trim() || null })}>
        <Field name="testEventCode" label="Test event code" defaultValue={workspace.testEventCode ?? ''} placeholder="TEST12345" description="Copy it from TikTok Events Manager → your pixel → Test Events." />
        {readOnly === null && <Submit pending={save.isPending && save.variables?.testMode === undefined}>Save code</Submit>}
      </Form>
      <div className="actions">
        <Switch className="switch" isSelected={workspace.testMode} isDisabled={readOnly !== null || save.isPending} aria-describedby={readOnly?.id} onChange={(on) => save.mutate({ testMode: on })}>
          <div className="indicator" aria-hidden="true" /> Test mode is {workspace.testMode ? 'on' : 'off'}
        </Switch>
      </div>

      <section aria-labelledby="send-test">
        <h2 id="send-test">Send a test conversion</h2>
        <p>Sends one CompletePayment of 1.00 USD to your pixel with the test event code, and shows TikTok's answer.</p>
        <div className="actions">
          <Button className="button primary" onPress={() => send.mutate()} isPending={send.isPending} isDisabled={sendBlocked !== null} aria-describedby={sendBlocked?.id}>
            Send a test conversion
          </Button>
          {sendBlocked !== null && sendBlocked !== readOnly && <WhyNot id={sendBlocked.id}>{sendBlocked.reason}</WhyNot>}
        </div>
        <FormError error={send.error} />
        {send.data && (
          <dl className={`answer ${send.data.accepted ? 'ok' : 'bad'}`} aria-live="polite">
            <dt>TikTok's answer</dt>
            <dd>{send.data.accepted ? 'accepted' : 'refused'}</dd>
            <dt>Code</dt>
            <dd>{send.data.code ?? '–'}</dd>
            <dt>Message</dt>
            <dd>{send.data.message}</dd>
            <dt>Request ID</dt>
            <dd>
              <code>{send.data.requestId ?? '–'}</code>
            </dd>
            <dt>Event ID</dt>
            <dd>
              <code>{send.data.eventId}</code>
            </dd>
          </dl>
        )}
      </section>
      <section aria-labelledby="verify">
        <h2 id="verify">Verify in TikTok</h2>
        <ol>
          <li>
            Open TikTok Ads Manager → Tools → Events, and choose the pixel{' '}
            {data?.tiktok?.pixelCode ? (
              <>
                {pixel ?? ''} <code>{data.tiktok.pixelCode}</code>
              </>
            ) : (
              'selected under Sources'
            )}
            .
          </li>
          <li>Open the Test Events tab: the test conversion appears within a few minutes, with source "Server" (API).</li>
          <li>Turn test mode off here when you are done; production conversions then appear in the event history with source API.</li>
        </ol>
      </section>
    </>
  );
}
