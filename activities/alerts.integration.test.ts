import { evaluateAlerts } from './alerts';
import type { MailSink } from '../devstack/mail-sink';
import type { Workspace } from '../db/repositories/workspaces';
import { DEFAULT_ALERT_SETTINGS } from '../db/repositories/alert-settings';
import { TEST_CONSOLE_URL, TestPipeline } from '../test/helpers/pipeline';
import { startTestMailSink } from '../test/helpers/mail-sink';
import { startWebhookReceiver, type WebhookReceiver } from '../test/helpers/webhook-receiver';
import { closeAll } from '../test/helpers/close-all';
import { createMailer } from '../notify/mailer';

jest.setTimeout(60_000);

let pipeline: TestPipeline;
let sink: MailSink;
let webhook: WebhookReceiver;

beforeAll(async () => {
  sink = await startTestMailSink();
  webhook = await startWebhookReceiver();
  pipeline = await TestPipeline.start({ worker: false, smtpUrl: sink.url });
});
afterAll(() =>
  closeAll(
    () => pipeline?.close(),
    () => sink?.close(),
    () => webhook?.close(),
  ),
);

const evaluate = () => evaluateAlerts(pipeline.deps);
const mailTo = (address: string) => sink.messages().filter((mail) => mail.to.includes(address));
const webhookTexts = (workspace: Workspace) => webhook.received.map((body) => (body as { text: string }).text).filter((text) => text.includes(workspace.name));

async function alertedWorkspace(recipient: string): Promise<Workspace> {
  const workspace = await pipeline.workspace();
  await pipeline.repos.alertSettings.put(workspace.id, { ...DEFAULT_ALERT_SETTINGS, emailEnabled: true, emailRecipients: [recipient], webhookUrl: webhook.url });
  return workspace;
}

describe('alert evaluation on PostgreSQL, a real SMTP server and a real webhook receiver', () => {
  it('sends one mail and one webhook per incident however often it runs, also when two run at once, and again for the next incident', async () => {
    const workspace = await alertedWorkspace('ops@fern.example');
    await evaluate();
    expect(mailTo('ops@fern.example')).toHaveLength(0);

    await pipeline.repos.tiktokConnections.markReauthorizationRequired(workspace.id);
    await Promise.all([evaluate(), evaluate()]);
    await evaluate();
    expect(mailTo('ops@fern.example').map((mail) => mail.subject)).toEqual([`[Signalbox] ${workspace.name}: TikTok needs to be connected again`]);
    expect(webhookTexts(workspace)).toHaveLength(1);
    expect(webhookTexts(workspace)[0]).toMatch(/^\*\[Signalbox\] .*: TikTok needs to be connected again\*\nTikTok needs to be connected again in the workspace/);
    expect(mailTo('ops@fern.example')[0]?.text).toContain(`Connect TikTok again: ${TEST_CONSOLE_URL}/console/w/${workspace.id}/sources#tiktok`);

    // Reconnected: the incident closes; refused again: a new incident, told again.
    await pipeline.repos.tiktokConnections.put(workspace.id, { accessToken: 'new-token', advertiserId: null, pixelCode: null });
    await evaluate();
    const [closed] = await pipeline.repos.alertIncidents.list(workspace.id, 10);
    expect(closed).toMatchObject({ condition: 'reauthorization', closedAt: expect.any(Date) });
    expect(closed?.notifications.map((n) => [n.channel, n.attempts, n.sentAt !== null, n.lastError])).toEqual([
      ['email', 1, true, null],
      ['webhook', 1, true, null],
    ]);
    await pipeline.repos.tiktokConnections.markReauthorizationRequired(workspace.id);
    await evaluate();
    expect(mailTo('ops@fern.example')).toHaveLength(2);
    expect(webhookTexts(workspace)).toHaveLength(2);
    expect((await pipeline.repos.alertIncidents.list(workspace.id, 10)).map((i) => i.closedAt === null)).toEqual([true, false]);
  });

  it('records a webhook that fails and sends it at the next evaluation, without mailing twice', async () => {
    const workspace = await alertedWorkspace('night@fern.example');
    webhook.answerWith(500);
    await pipeline.repos.tiktokConnections.markReauthorizationRequired(workspace.id);
    const failed = await evaluate();
    expect(failed.notSent).toBeGreaterThanOrEqual(1);
    const [incident] = await pipeline.repos.alertIncidents.list(workspace.id, 10);
    expect(incident?.notifications.find((n) => n.channel === 'webhook')).toMatchObject({ sentAt: null, attempts: 1, lastError: 'the webhook answered HTTP 500' });

    webhook.answerWith(200);
    await evaluate();
    const [after] = await pipeline.repos.alertIncidents.list(workspace.id, 10);
    expect(after?.notifications.map((n) => [n.channel, n.attempts, n.sentAt !== null, n.lastError])).toEqual([
      ['email', 1, true, null],
      ['webhook', 2, true, null],
    ]);
    expect(mailTo('night@fern.example')).toHaveLength(1);
  });

  it('mails the owners when no address is given, and says so when the mail server is missing', async () => {
    const workspace = await pipeline.workspace();
    await pipeline.database.db('users').insert({ id: 'usr_alertowner', email: 'owner@oak.example', password_hash: 'x' });
    await pipeline.repos.users.putMembership(workspace.id, 'usr_alertowner', 'owner');
    await pipeline.repos.alertSettings.put(workspace.id, { ...DEFAULT_ALERT_SETTINGS, emailEnabled: true });
    await pipeline.repos.tiktokConnections.markReauthorizationRequired(workspace.id);
    await evaluate();
    await sink.waitFor((mail) => mail.to.includes('owner@oak.example'));

    const unmailed = await pipeline.workspace();
    await pipeline.repos.alertSettings.put(unmailed.id, { ...DEFAULT_ALERT_SETTINGS, emailEnabled: true, emailRecipients: ['ops@oak.example'] });
    await pipeline.repos.tiktokConnections.markReauthorizationRequired(unmailed.id);
    await evaluateAlerts({ ...pipeline.deps, notify: { ...pipeline.deps.notify, mailer: createMailer({ smtpUrl: undefined, from: 'signalbox@test.example' }) } });
    const [incident] = await pipeline.repos.alertIncidents.list(unmailed.id, 1);
    expect(incident?.notifications).toEqual([{ channel: 'email', attempts: 1, sentAt: null, lastError: 'no mail server is configured (SMTP_URL is not set)' }]);
  });

  it('opens an incident when no event arrived for the chosen time, and closes it when one arrives', async () => {
    const workspace = await alertedWorkspace('quiet@fern.example');
    await pipeline.repos.alertSettings.put(workspace.id, { ...DEFAULT_ALERT_SETTINGS, silenceMinutes: 30, emailEnabled: true, emailRecipients: ['quiet@fern.example'] });
    await evaluate();
    expect(await pipeline.repos.alertIncidents.openConditions(workspace.id)).toEqual([]);

    await pipeline.database.db('alert_settings').where({ workspace_id: workspace.id }).update({ created_at: pipeline.database.db.raw("now() - interval '31 minutes'") });
    await evaluate();
    expect(await pipeline.repos.alertIncidents.openConditions(workspace.id)).toEqual(['no_events']);
    expect((await sink.waitFor((mail) => mail.to.includes('quiet@fern.example'))).text).toContain('No event has arrived since the alerts were set up, more than 30 minutes ago.');

    await pipeline.ingest(workspace, [{ type: 'page', messageId: 'quiet-1', anonymousId: 'visitor' }], { start: false });
    await evaluate();
    expect(await pipeline.repos.alertIncidents.openConditions(workspace.id)).toEqual([]);
  });

  it('opens an incident when the share of conversions that failed in the last hour reaches the threshold', async () => {
    const workspace = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    await pipeline.repos.alertSettings.put(workspace.id, { ...DEFAULT_ALERT_SETTINGS, failedSharePercent: 40, emailEnabled: true, emailRecipients: ['share@fern.example'] });
    const orders = Array.from({ length: 5 }, (_, i) => ({ type: 'track', event: 'purchase', messageId: `share-${i}`, userId: 'fern-lover', properties: { order_id: `S-${i}`, total: 10, currency: 'EUR' } }));
    const conversions = await pipeline.ingest(workspace, orders, { start: false });
    const settle = (ids: string[], status: 'delivered' | 'failed', endedAgo: string) =>
      pipeline.database.db('conversions').whereIn('id', ids).update({ status, completed_at: pipeline.database.db.raw(`now() - interval '${endedAgo}'`) });
    const ids = conversions.map((c) => c.id);
    // Two failed of five is 40%, but one of them ended two hours ago: 1 of 4 in the hour, not yet 5 settled.
    await settle(ids.slice(0, 3), 'delivered', '1 minute');
    await settle(ids.slice(3, 4), 'failed', '1 minute');
    await settle(ids.slice(4), 'failed', '2 hours');
    await evaluate();
    expect(await pipeline.repos.alertIncidents.openConditions(workspace.id)).toEqual([]);

    await settle(ids.slice(4), 'failed', '5 minutes');
    await pipeline.database.db('conversions').whereIn('id', ids.slice(3)).update({ tiktok_code: 40002, tiktok_message: 'pixel_code is invalid' });
    await evaluate();
    expect(await pipeline.repos.alertIncidents.openConditions(workspace.id)).toEqual(['failed_deliveries']);
    const { text } = await sink.waitFor((mail) => mail.to.includes('share@fern.example'));
    expect(text).toContain('2 of the 5 conversions settled in the last hour failed (40%; the alert is at 40%).');
    expect(text).toContain('What TikTok answered the conversions that failed:\n- “pixel_code is invalid” (code 40002): 2 conversions');
    expect(text).toContain(`The failed conversions: ${TEST_CONSOLE_URL}/console/w/${workspace.id}/conversions?status=failed`);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });
});
