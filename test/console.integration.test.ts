import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_APP_ID, FAKE_TIKTOK_APP_SECRET, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import type { ConversionRow } from '../db/types';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { buildTestApp } from './helpers/test-app';
import { closeAll } from './helpers/close-all';
import { TestPipeline } from './helpers/pipeline';

/** Without the background-networking flags Chromium dials out, and this machine's closed network refuses it. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ROOT = path.join(__dirname, '..');
/** Screenshots of every page, to look at after a run (gitignored). */
const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'console');
const OWNER = { email: 'owner@fern.example', password: 'a long enough passphrase' };
const RETARGETING_AD = '1820000000000000003';

jest.setTimeout(180_000);

let pipeline: TestPipeline;
let ingest: FastifyInstance;
let ingestUrl: string;
/** Known before the server starts: the OAuth redirect URI names it. */
let ingestPort: ReservedPort;
let browser: BrowserContext;
let page: Page;
let workspaceId: string;
let secretKey: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-console-'));

/** The console as `npm run build` makes it, built afresh for this run. */
function buildConsole(outDir: string): void {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--logLevel', 'error'], { cwd: path.join(ROOT, 'console'), stdio: 'inherit' });
}

beforeAll(async () => {
  const consoleDirectory = path.join(scratch, 'console');
  buildConsole(consoleDirectory);
  mkdirSync(ARTIFACTS, { recursive: true });
  pipeline = await TestPipeline.start();
  ingestPort = await reservePort();
  const { port } = ingestPort;
  ingestUrl = `http://127.0.0.1:${port}`;
  ({ app: ingest } = buildTestApp(pipeline.database.db, {
    repos: pipeline.repos,
    recordBatch: pipeline.recordBatch,
    startConversions: pipeline.startConversions,
    tiktokApiUrl: pipeline.fake.url,
    oauth: { appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET, redirectUri: `${ingestUrl}/oauth/tiktok/callback`, authUrl: `${pipeline.fake.url}/portal/auth` },
    schedules: pipeline.adStatsSchedules,
    consoleDirectory,
    workflowLink: (id) => `http://127.0.0.1:8233/namespaces/default/workflows/${id}`,
  }));
  await ingest.listen({ port, host: '127.0.0.1' });

  // The operator's first step (`signalbox users create … --owner ws_…`), then everything else in the browser.
  const admin = (method: string, url: string, body: unknown) =>
    fetch(`${ingestUrl}${url}`, { method, headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  workspaceId = ((await admin('POST', '/admin/workspaces', { name: 'Fern shop' })) as { id: string }).id;
  await admin('POST', `/admin/workspaces/${workspaceId}/members`, { email: OWNER.email, role: 'owner', password: OWNER.password });

  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  browser = await chromium.launchPersistentContext(path.join(scratch, 'profile'), { executablePath, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 } });
  page = browser.pages()[0] ?? (await browser.newPage());
});

afterAll(() =>
  closeAll(
    () => browser?.close(),
    () => ingest?.close(),
    () => ingestPort?.release(),
    () => pipeline?.close(),
    () => rmSync(scratch, { recursive: true, force: true }),
  ),
);

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
const open = (pagePath: string) => page.goto(`${ingestUrl}/console/w/${workspaceId}/${pagePath}`);
/** The `name` of the focused element (the test is compiled without DOM types, hence the narrow shape). */
const focusedName = () =>
  page.evaluate(() => {
    const active = (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }).document.activeElement;
    return active?.getAttribute('name') ?? '';
  });

function send(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${ingestUrl}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function settledConversion(eventId: string): Promise<ConversionRow> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const row = (await pipeline.database.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).first()) as ConversionRow | undefined;
    if (row !== undefined) return pipeline.settled(row);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`conversion ${eventId} never appeared`);
}

describe('the console in Chromium, from nothing to a delivered conversion', () => {
  it('sends a person without a session to sign in, signs in with the keyboard, and comes back', async () => {
    await page.goto(`${ingestUrl}/console/w/${workspaceId}/rules`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await shot('01-sign-in');
    expect(await focusedName()).toBe('email');
    await page.keyboard.type(OWNER.email);
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('password');
    await page.keyboard.type('wrong password!!');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'email or password is not right' }).waitFor();
    await page.getByLabel('Password').fill(OWNER.password);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${ingestUrl}/console/w/${workspaceId}/rules`);
    await page.getByRole('heading', { name: 'Conversion rules' }).waitFor();
  });

  it('connects TikTok through OAuth against the fake, then chooses the advertiser and the pixel', async () => {
    await open('sources');
    await page.getByRole('button', { name: 'Connect TikTok' }).click();
    await page.waitForURL(/\/sources\?tiktok=connected$/);
    await page.getByText('Choose the advertiser below.').waitFor();
    await page.getByLabel('Advertiser', { exact: true }).selectOption(FAKE_TIKTOK_ADVERTISER_ID);
    const pixel = page.getByLabel('Pixel', { exact: true });
    await pixel.locator(`option[value="${FAKE_TIKTOK_PIXEL_CODE}"]`).waitFor({ state: 'attached' });
    await pixel.selectOption(FAKE_TIKTOK_PIXEL_CODE);
    await page.getByText('Choose the pixel that receives conversions below.').waitFor({ state: 'detached' });
    expect(await pipeline.repos.tiktokConnections.summary(workspaceId)).toMatchObject({ advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE, source: 'oauth' });

    await page.getByLabel('Key name').fill('backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    secretKey = (await page.locator('code.secret').textContent()) ?? '';
    expect(secretKey).toMatch(/^dk_/);
    await shot('02-sources');
  });

  it('creates a purchase rule with the keyboard, and a refused value is named beside its field', async () => {
    await open('rules');
    await page.getByText('No rule yet').waitFor();
    await page.getByLabel('Your event').focus();
    await page.keyboard.type('purchase');
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('tiktokEvent');
    await page.getByLabel('A fixed amount').check();
    await page.getByLabel('Amount', { exact: true }).fill('-3');
    await page.getByLabel('Currency').fill('USD');
    await page.getByLabel('Currency').press('Enter');
    await page.getByText('must be a positive number').waitFor();
    expect(await pipeline.repos.conversionRules.find(workspaceId, 'purchase')).toBeUndefined();
    await page.getByLabel('The order total of each event').check();
    await page.getByLabel('Currency').fill('');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('heading', { name: 'purchase → CompletePayment' }).waitFor();
    await shot('03-rules');
  });

  it('turns test mode on, sends a test conversion and shows TikTok’s answer, with the banner on every page', async () => {
    await open('test');
    await page.getByLabel('Test event code').fill('TEST12345');
    const saved = page.waitForResponse((response) => response.url().endsWith('/settings') && response.status() === 200);
    await page.getByRole('button', { name: 'Save code' }).click();
    await saved;
    await page.getByRole('switch').click({ force: true });
    await page.getByRole('status').filter({ hasText: 'Test mode is on' }).waitFor();
    await page.getByRole('button', { name: 'Send a test conversion' }).click();
    const answer = page.locator('dl.answer');
    await answer.getByText('accepted').waitFor();
    expect(await answer.textContent()).toMatch(/Code0MessageOKRequest ID\d{14}[0-9A-F]{20}/);
    await shot('04-test-mode');
    await page.getByRole('switch').click({ force: true });
    await page.getByRole('status').filter({ hasText: 'Test mode is on' }).waitFor({ state: 'detached' });
  });

  it('shows an event live in the debugger, and a refused request with its field', async () => {
    await open('debugger');
    await page.getByText('live', { exact: true }).waitFor();
    const click = await pipeline.fake.click(RETARGETING_AD);
    expect((await send({ batch: [{ type: 'page', messageId: 'landing-1', anonymousId: 'phone-visitor', context: { page: { url: click.landingUrl }, traits: { email: 'fern@lover.example' } } }] })).status).toBe(200);
    expect((await send({ batch: [{ type: 'track', messageId: 'broken-1', userId: 'u' }] })).status).toBe(400);
    await page.locator('.stream-item').filter({ hasText: 'page' }).first().waitFor();
    const refused = page.locator('.stream-item.refused').first();
    await refused.waitFor();
    await refused.locator('summary').click();
    await refused.getByRole('listitem').filter({ hasText: 'batch[0].event is required for track messages' }).waitFor();
    await shot('05-debugger');
  });

  it('shows the purchase delivered with the identity path that found the click', async () => {
    await send({ batch: [{ type: 'track', messageId: 'order-1', event: 'purchase', userId: 'fern-lover', anonymousId: 'desk-visitor', properties: { order_id: 'F-1001', total: 59.9, currency: 'EUR' }, context: { traits: { email: 'fern@lover.example' } } }] });
    expect(await settledConversion('F-1001')).toMatchObject({ status: 'delivered', click_anonymous_id: 'phone-visitor' });
    await open('conversions');
    const row = page.locator('tr').filter({ hasText: 'F-1001' });
    await row.getByText('delivered').waitFor();
    await shot('06-conversions');
    await row.getByRole('link').click();
    await page.getByText('— clicked the ad').waitFor();
    expect(await page.locator('.path').textContent()).toContain('same hashed email');
    await page.getByText('Open its workflow in the Temporal UI').waitFor();
    await shot('07-conversion-delivered');
  });

  it('explains a conversion without a click: its reason and the fix', async () => {
    await send({ batch: [{ type: 'track', messageId: 'order-2', event: 'purchase', userId: 'walk-in', properties: { order_id: 'F-1002', total: 12, currency: 'EUR' } }] });
    const skipped = await settledConversion('F-1002');
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'no_ttclid' });
    await open(`conversions/${skipped.id}`);
    await page.getByRole('heading', { name: 'Why: no_ttclid' }).waitFor();
    await page.getByText('Install the tracking tag on every landing page').waitFor();
    await shot('08-conversion-skipped');
  });

  it('looks the person up by email: linked devices, the click, events and conversions', async () => {
    await open('people');
    await page.getByLabel('Value').fill('Fern@Lover.example');
    await page.getByLabel('Value').press('Enter');
    await page.getByRole('heading', { name: 'Devices (visitors)' }).waitFor();
    await page.getByText('phone-visitor').first().waitFor();
    await shot('09-people');
  });

  it('shows ad performance with TikTok’s figures beside the delivered conversion', async () => {
    const pulled = await fetch(`${ingestUrl}/admin/workspaces/${workspaceId}/tiktok/stats/pull`, { method: 'POST', headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' } });
    expect(pulled.status).toBe(202);
    for (let attempt = 0; attempt < 200 && (await pipeline.repos.tiktokConnections.summary(workspaceId))?.statsPulledAt == null; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await open('ads?period=7d');
    const spring = page.locator('tr').filter({ hasText: 'Spring sale' });
    await spring.waitFor();
    const cells = await spring.locator('td').allTextContents();
    expect(cells.at(-2)).toBe('1');
    await shot('10-ads');
    await spring.getByRole('link').click();
    await page.getByRole('navigation', { name: 'Drill-down' }).getByRole('link', { name: 'campaign 1800000000000000001' }).waitFor();
    await page.getByRole('columnheader', { name: 'Ad group' }).waitFor();
  });

  it('shows the overview and the settings with the change log of everything done', async () => {
    await open('overview?period=7d');
    await page.getByRole('heading', { name: 'CompletePayment' }).waitFor();
    await page.getByText('Active', { exact: true }).waitFor();
    await shot('11-overview');
    await open('settings');
    await page.getByText('rule.put purchase').waitFor();
    await page.getByText('tiktok.pixel').waitFor();
    await shot('12-settings');
    const actions = (await pipeline.database.db('change_log').where({ workspace_id: workspaceId }).select('action', 'actor')).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['tiktok.connect', 'tiktok.advertiser', 'tiktok.pixel', 'key.create', 'rule.put', 'settings.update']));
  });

  it('asks for the current password before changing it, on the account page', async () => {
    await page.goto(`${ingestUrl}/console/account`);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByLabel('Current password', { exact: true }).fill('not-the-password-at-all');
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-passphrase-2026');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/is not the password of this account/).first().waitFor();
    await shot('13-account');
  });

  it('also sends purchases as PlaceAnOrder: the rule form names too many events beside the field, and each conversion says which of the two it is', async () => {
    await open('rules');
    await page.locator('li.rule').filter({ hasText: 'purchase → CompletePayment' }).getByRole('button', { name: 'Edit' }).click();
    const alsoSendAs = page.getByRole('group', { name: /Also send as/ });
    for (const name of ['PlaceAnOrder', 'Purchase', 'AddPaymentInfo', 'Subscribe']) await alsoSendAs.getByText(name, { exact: true }).click();
    await page.getByRole('button', { name: 'Save rule' }).click();
    await alsoSendAs.getByText('must name at most 3 TikTok events, not 4').waitFor();
    await shot('14-rules-also-send-as-refused');
    expect((await pipeline.repos.conversionRules.find(workspaceId, 'purchase'))?.alsoSendAs).toEqual([]);
    for (const name of ['Purchase', 'AddPaymentInfo', 'Subscribe']) await alsoSendAs.getByText(name, { exact: true }).click();
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('heading', { name: 'purchase → CompletePayment + PlaceAnOrder' }).waitFor();
    await shot('15-rules-also-send-as');

    await send({ batch: [{ type: 'track', messageId: 'order-3', event: 'purchase', userId: 'fern-lover', anonymousId: 'desk-visitor', properties: { order_id: 'F-1003', total: 20, currency: 'EUR' } }] });
    expect(await settledConversion('F-1003')).toMatchObject({ status: 'delivered', tiktok_event: 'CompletePayment' });
    expect(await settledConversion('F-1003:PlaceAnOrder')).toMatchObject({ status: 'delivered', tiktok_event: 'PlaceAnOrder' });
    await open('conversions?q=F-1003');
    const placed = page.locator('tr').filter({ hasText: 'F-1003:PlaceAnOrder' });
    await placed.getByText('(2 of 2)').waitFor();
    await page.locator('tr').filter({ hasText: 'CompletePayment (1 of 2)' }).waitFor();
    await shot('16-conversions-two-events');
    await placed.getByRole('link').click();
    await page.getByRole('heading', { name: '2 of 2 TikTok events sent for this message' }).waitFor();
    await page.getByRole('link', { name: 'CompletePayment' }).waitFor();
    await shot('17-conversion-two-events');
  });
});
