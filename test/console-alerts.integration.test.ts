import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { MailSink } from '../devstack/mail-sink';
import { EVENT_TRACK_PATH, FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import type { Workspace } from '../db/repositories/workspaces';
import { createMailer } from '../notify/mailer';
import type { WebhookTargetRule } from '../notify/webhook-target';
import { OWNER, startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { linkIn, startTestMailSink } from './helpers/mail-sink';
import { TEST_MAIL_FROM, type TestPipeline } from './helpers/pipeline';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver';
import { closeAll } from './helpers/close-all';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';
import { track } from './helpers/messages';

jest.setTimeout(180_000);

const NEW_PASSWORD = 'another long passphrase';

let session: ConsoleInBrowser;
let sink: MailSink;
let webhook: WebhookReceiver;
let pipeline: TestPipeline;
let page: Page;
/**
 * The API's ALERT_WEBHOOK_INTERNAL_ADDRESSES: `refuse`, the default, until the first test has seen an internal address
 * refused; then `allow`, as the dev stack sets it, so that the webhook can be the receiver on this machine.
 */
const alertWebhooks: WebhookTargetRule = { internalAddresses: 'refuse' };

beforeAll(async () => {
  sink = await startTestMailSink();
  webhook = await startWebhookReceiver();
  session = await startConsoleInBrowser({
    artifacts: 'console-alerts',
    pipeline: { smtpUrl: sink.url },
    app: () => ({ mailer: createMailer({ smtpUrl: sink.url, from: TEST_MAIL_FROM }), alertWebhooks }),
  });
  ({ pipeline, page } = session);
});
afterAll(() =>
  closeAll(
    () => session?.close(),
    () => sink?.close(),
    () => webhook?.close(),
  ),
);

/** What the `signalbox-alerts` schedule starts every minute, started now on the test's worker. */
const evaluateAlerts = () => pipeline.client.workflow.execute('alertsWorkflow', { taskQueue: pipeline.taskQueue, workflowId: `alerts-${randomBytes(4).toString('hex')}` });

describe('alerts and password reset in the console, in Chromium', () => {
  it('refuses a webhook on an internal address when it is saved, with the reason beside the field', async () => {
    await session.signInAsOwner();
    await session.open('alerts');
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    await page.getByText('No incident yet').waitFor();
    await session.shots('01-alerts-empty');

    await page.getByText('Email', { exact: true }).click();
    await page.getByText('Webhook (Slack-compatible)').click();
    const field = page.getByLabel('Webhook URL');
    await field.fill('https://169.254.169.254/latest/meta-data/');
    await page.getByRole('button', { name: 'Save alerts' }).click();
    const besideField = page.locator('.field').filter({ has: field }).locator('.field-error');
    await besideField.filter({ hasText: 'must reach a public address' }).waitFor();
    expect(await besideField.textContent()).toBe('must reach a public address: 169.254.169.254 is a link-local address, where clouds serve instance metadata, which this server does not call');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await session.shots('02-alerts-internal-webhook-refused');
    expect(await pipeline.repos.alertSettings.get(session.workspaceId)).toMatchObject({ emailEnabled: false, webhookUrl: null });
  });

  it('sets up a webhook and an email alert, a refused URL named beside its field', async () => {
    alertWebhooks.internalAddresses = 'allow';
    await session.refusedThenOneClick(page.getByLabel('Webhook URL'), { value: 'http://hooks.slack.example/x', message: 'must be an https:// URL' }, webhook.url, 'Save alerts');
    await session.toast('Alerts saved');
    await page.getByText(`Saved: http://127.0.0.1:${new URL(webhook.url).port}/…XXXX`).waitFor();
    expect(await pipeline.repos.alertSettings.get(session.workspaceId)).toMatchObject({ onReauthorization: true, emailEnabled: true, emailRecipients: [], webhookUrl: webhook.url });
  });

  it('tells the owners once by mail and the webhook once when TikTok refuses the token, and lists the incident', async () => {
    const workspace = (await pipeline.repos.workspaces.find(session.workspaceId)) as Workspace;
    await pipeline.repos.workspaces.updateSettings(workspace.id, { matchWithoutClick: true });
    await pipeline.repos.conversionRules.put(workspace.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
    await pipeline.repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, code: 40105, message: 'Access token is incorrect or has been revoked.' }]);
    const [conversion] = await pipeline.ingest(workspace, [track('purchase', { userId: 'fern-lover' }, { order_id: 'F-2001', total: 12, currency: 'EUR' })]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'failed', tiktok_code: 40105 });
    expect(await pipeline.repos.tiktokConnections.summary(workspace.id)).toMatchObject({ status: 'reauthorization_required' });

    await evaluateAlerts();
    await evaluateAlerts();
    const mail = await sink.waitFor((m) => m.to.includes(OWNER.email));
    expect(mail.subject).toBe('[Signalbox] Fern shop: TikTok needs to be connected again');
    expect(sink.messages().filter((m) => m.to.includes(OWNER.email))).toHaveLength(1);
    expect(webhook.received).toEqual([{ text: expect.stringMatching(/^\*\[Signalbox\] Fern shop: TikTok needs to be connected again\*\n/) }]);

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'TikTok needs to be connected again' });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      expect.stringContaining('TikTok refused the access token'),
      expect.any(String),
      'ongoing',
      expect.stringMatching(/^Email: sent .*Webhook: sent /),
    ]);
    await session.shots('03-alerts-incident');
  });

  it('sends a test alert through the saved channels on the worker, and says how each went', async () => {
    webhook.answerWith(500);
    await page.getByRole('button', { name: 'Send a test alert' }).click();
    const outcomes = page.locator('ul.outcomes');
    await outcomes.getByText(`Email to ${OWNER.email}: sent`).waitFor();
    await outcomes.getByText('Webhook: not sent: the webhook answered HTTP 500').waitFor();
    const mail = await sink.waitFor((m) => m.to.includes(OWNER.email) && m.subject === '[Signalbox] Fern shop: test alert');
    expect(mail.text).toContain(`at the request of ${OWNER.email}`);
    expect(mail.text).toMatch(/\/console\/w\/ws_\w+\/alerts$/m);
    await session.shots('02-alerts-test-alert');
    webhook.answerWith(200);
  });

  it('resets the password through the mailed link, which ends the session, and signs in with the new one', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // The page loads on demand: until it shows, "Email" is still the sign-in form's field.
    const sendTheLink = page.getByRole('button', { name: 'Send the link' });
    await sendTheLink.waitFor();
    await page.getByLabel('Email').fill(OWNER.email);
    await sendTheLink.click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this address' }).waitFor();
    await session.shots('04-forgot-password');

    const mail = await sink.waitFor((m) => m.to.includes(OWNER.email) && m.subject === 'Set a new Signalbox password');
    await page.goto(linkIn(mail.text));
    await page.getByText(`For ${OWNER.email}.`).waitFor();
    await session.refusedThenOneClick(page.getByLabel('New password', { exact: true }), { value: 'short', message: 'must be at least 12 characters' }, NEW_PASSWORD, 'Set the password');
    await page.getByRole('status').filter({ hasText: 'Your password is set.' }).waitFor();
    await session.shots('05-password-set');

    await page.getByRole('link', { name: 'Sign in with it' }).click();
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(/\/console\/$|\/overview$/);
    await page.goto(linkIn(mail.text));
    await page.getByText('was used already or has expired').waitFor();
    expect(session.notFound.filter((url) => !url.includes('/password-resets/'))).toEqual([]);
  });

  it('shows a viewer the alerts with the form disabled and why', async () => {
    const viewer = { email: 'viewer@fern.example', password: 'a quiet reader passphrase' };
    const added = await fetch(`${session.ingestUrl}/admin/workspaces/${session.workspaceId}/members`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...viewer, role: 'viewer' }),
    });
    expect(added.status).toBe(201);
    await session.browser.clearCookies();
    await page.goto(`${session.ingestUrl}/console/sign-in`);
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByLabel('Password').fill(viewer.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(/\/overview$/);
    await session.open('alerts');
    await page.getByText('Your role (viewer) cannot change the alerts or send a test alert: it needs an editor or owner.').waitFor();
    expect(await page.getByRole('button', { name: 'Save alerts' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send a test alert' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Webhook URL').isEditable()).toBe(false);
    await page.getByRole('row').filter({ hasText: 'TikTok needs to be connected again' }).waitFor();
    await session.shots('06-alerts-viewer');
  });
});
