import type { FastifyInstance } from 'fastify';
import { testAlertView } from '../../contract/alert-views';
import type { MailSink } from '../../devstack/mail-sink';
import { createTestAlertSender } from '../../temporal/test-alerts';
import { closeAll } from '../../test/helpers/close-all';
import { runAgainst } from '../../test/helpers/cli';
import { adminCall, asPerson, createWorkspace, personIn, type Person } from '../../test/helpers/console-client';
import { startTestMailSink } from '../../test/helpers/mail-sink';
import { TestPipeline } from '../../test/helpers/pipeline';
import { buildTestApp } from '../../test/helpers/test-app';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/helpers/webhook-receiver';

jest.setTimeout(60_000);

const CONSOLE_URL = 'https://signalbox.fern.example';

let pipeline: TestPipeline;
let sink: MailSink;
let webhook: WebhookReceiver;
let app: FastifyInstance;
/** The same API with no worker on its task queue. */
let unserved: FastifyInstance;
let fernShop: string;
let editor: Person;
let viewer: Person;

beforeAll(async () => {
  sink = await startTestMailSink();
  webhook = await startWebhookReceiver();
  pipeline = await TestPipeline.start({ smtpUrl: sink.url, publicUrl: CONSOLE_URL });
  // The webhook receiver is on this machine: saving it needs internal addresses allowed, as the dev stack does.
  const alertWebhooks = { internalAddresses: 'allow' } as const;
  app = buildTestApp(pipeline.database.db, { repos: pipeline.repos, alertWebhooks, sendTestAlert: createTestAlertSender(pipeline.client, pipeline.taskQueue) }).app;
  unserved = buildTestApp(pipeline.database.db, { repos: pipeline.repos, alertWebhooks, sendTestAlert: createTestAlertSender(pipeline.client, `${pipeline.taskQueue}-nobody`, 2) }).app;
  fernShop = await createWorkspace(app, 'Fern shop');
  await personIn(app, fernShop, 'owner@fern.example', 'owner');
  editor = await personIn(app, fernShop, 'editor@fern.example', 'editor');
  viewer = await personIn(app, fernShop, 'viewer@fern.example', 'viewer');
});
afterAll(() =>
  closeAll(
    () => app?.close(),
    () => unserved?.close(),
    () => pipeline?.close(),
    () => sink?.close(),
    () => webhook?.close(),
  ),
);

const settings = { onReauthorization: true, failedSharePercent: null, silenceMinutes: null, emailEnabled: true, emailRecipients: ['ops@fern.example'] };

describe('send a test alert', () => {
  it('says there is nowhere to send one until a channel is saved, and refuses a viewer', async () => {
    const early = await asPerson(app, editor)('POST', `workspaces/${fernShop}/alerts/test`);
    expect([early.statusCode, early.json().error, early.json().message]).toEqual([409, 'no_alert_channel', 'alerts go nowhere yet: tick Email or Webhook and save the alerts, then send a test alert']);
    const byViewer = await asPerson(app, viewer)('POST', `workspaces/${fernShop}/alerts/test`);
    expect(byViewer.statusCode).toBe(403);
  });

  it('goes through a worker by mail and webhook as an alert would, and answers how each fared, in words', async () => {
    await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, { ...settings, webhookUrl: webhook.url });
    webhook.answerWith(500);
    const answer = await asPerson(app, editor)('POST', `workspaces/${fernShop}/alerts/test`);
    expect(answer.statusCode).toBe(200);
    expect(testAlertView.parse(answer.json()).outcomes).toEqual([
      { channel: 'email', recipients: ['ops@fern.example'], sent: true, error: null },
      { channel: 'webhook', recipients: [], sent: false, error: 'the webhook answered HTTP 500' },
    ]);
    const mail = await sink.waitFor((m) => m.to.includes('ops@fern.example'));
    expect(mail.subject).toBe('[Signalbox] Fern shop: test alert');
    expect(mail.text).toContain('at the request of editor@fern.example');
    expect(mail.text).toContain(`This workspace's alerts: ${CONSOLE_URL}/console/w/${fernShop}/alerts`);
    expect(mail.text).toContain('Times are in UTC');
    expect(webhook.received).toEqual([{ text: expect.stringMatching(/^\*\[Signalbox\] Fern shop: test alert\*\nA test alert for the workspace “Fern shop”/) }]);
    const log = (await asPerson(app, viewer)('GET', `workspaces/${fernShop}/change-log?limit=1`)).json();
    expect(log.entries[0]).toMatchObject({ summary: 'Sent a test alert by email; it could not be sent to the webhook', actorName: 'editor@fern.example' });
    // A test records no incident.
    expect(await pipeline.repos.alertIncidents.list(fernShop, 10)).toEqual([]);
  });

  it('is also a settings API route, for the operator', async () => {
    webhook.answerWith(200);
    const answer = await adminCall(app, 'POST', `/admin/workspaces/${fernShop}/alerts/test`);
    expect(answer.statusCode).toBe(200);
    expect(testAlertView.parse(answer.json()).outcomes.map((o) => [o.channel, o.sent])).toEqual([
      ['email', true],
      ['webhook', true],
    ]);
    expect((webhook.received.at(-1) as { text: string }).text).toContain('at the request of the operator');
  });

  it('is a CLI command too, which says how each channel went and fails when one did not', async () => {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const sent = await runAgainst(url, ['alerts', 'test', fernShop]);
    expect([sent.code, sent.stdout]).toEqual([0, 'Email to ops@fern.example: sent\nWebhook: sent']);
    webhook.answerWith(500);
    const half = await runAgainst(url, ['alerts', 'test', fernShop]);
    expect([half.code, half.stdout, half.stderr]).toEqual([1, 'Email to ops@fern.example: sent\nWebhook: not sent: the webhook answered HTTP 500', 'Error: the test alert could not be sent on every channel']);
  });

  it('says so when no worker runs to send it', async () => {
    const answer = await asPerson(unserved, editor)('POST', `workspaces/${fernShop}/alerts/test`);
    expect([answer.statusCode, answer.json().error, answer.json().message]).toEqual([503, 'worker_unavailable', 'no worker sent the test alert in time: alerts are sent by the worker process, so check that it runs']);
  });
});
