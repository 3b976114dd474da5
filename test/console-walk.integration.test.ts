/**
 * Issue 31's strict walk: every page of the console, as owner, editor and viewer, at 1,440 × 900 and 390 × 844, over
 * a workspace with something on every page (a TikTok connection by OAuth, rules, delivered, skipped, failed and
 * repeated conversions, an order total that is no number, refused requests, ad statistics, an alert incident, an
 * invitation). On each: no code in prose, no raw ID where a name exists, no disabled control without its reason, no
 * failed request or page error, no sideways scroll (test/helpers/strict-walk.ts). Screenshots under
 * `test-artifacts/console-walk/<role>-<page>-{desktop,phone}.png`.
 */
import type { Page } from 'playwright-core';
import { evaluateAlerts } from '../activities/alerts';
import { DEFAULT_ALERT_SETTINGS } from '../db/repositories/alert-settings';
import type { ConversionRow } from '../db/types';
import type { MailSink } from '../devstack/mail-sink';
import { EVENT_TRACK_PATH, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { closeAll } from './helpers/close-all';
import { OWNER, startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { startTestMailSink } from './helpers/mail-sink';
import { strictProblems, watchFailures } from './helpers/strict-walk';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver';

jest.setTimeout(300_000);

const RETARGETING_AD = '1820000000000000003';
const EDITOR = { email: 'ed@fern.example', password: 'a second long passphrase' };
const VIEWER = { email: 'vi@fern.example', password: 'a third long passphrase' };
const SHOP = 'https://shop.fern.example';

let session: ConsoleInBrowser;
let page: Page;
let workspaceId: string;
let sink: MailSink;
let webhook: WebhookReceiver;
let failures: string[];
/** The conversion pages the walk opens, by what they show. */
const conversions: Record<'delivered' | 'skipped' | 'warning' | 'failed', string> = { delivered: '', skipped: '', warning: '', failed: '' };

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${session.ingestUrl}/admin/workspaces/${workspaceId}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};

async function settled(eventId: string): Promise<ConversionRow> {
  return session.settledConversion(eventId);
}

/** The workspace every page has something of, made through the settings API and ingest as a shop would. */
async function seed(): Promise<void> {
  const { pipeline, ingestUrl } = session;
  await admin('POST', '/members', { email: EDITOR.email, role: 'editor', password: EDITOR.password });
  await admin('POST', '/members', { email: VIEWER.email, role: 'viewer', password: VIEWER.password });
  await admin('POST', '/members', { email: 'jo@fern.example', role: 'viewer' });
  // OAuth as the owner's browser does it: the fake approves at once and sends it back to the callback.
  const { url } = (await admin('POST', '/tiktok/oauth/authorize')) as { url: string };
  expect((await fetch(url)).status).toBe(200);
  await admin('PUT', '/tiktok/advertiser', { advertiserId: FAKE_TIKTOK_ADVERTISER_ID });
  await admin('PUT', '/tiktok/pixel', { pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  await admin('PATCH', '/settings', { allowedOrigins: [SHOP], testEventCode: 'TEST12345' });
  const secretKey = ((await admin('POST', '/api-keys', { name: 'backend' })) as { key: string }).key;
  const browserKey = ((await admin('POST', '/api-keys', { name: 'shop tag', kind: 'browser' })) as { key: string }).key;
  await admin('PUT', '/conversion-rules/purchase', {});
  await admin('PUT', '/conversion-rules/add_to_cart', {});

  const send = (batch: object[], headers: Record<string, string> = {}, key = secretKey) =>
    fetch(`${ingestUrl}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ batch }) });
  const click = await pipeline.fake.click(RETARGETING_AD);
  const order = (messageId: string, orderId: string, total: number | string, userId = 'fern_lover') => ({
    type: 'track',
    messageId,
    event: 'purchase',
    userId,
    anonymousId: 'desk_visitor',
    properties: { order_id: orderId, total, currency: 'EUR' },
    context: { traits: { email: 'fern@lover.example' } },
  });
  await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, bodyIncludes: '"F-1004"', code: 40002, message: 'Invalid value for field: event_time.', times: 10 }]);
  expect(
    (
      await send([
        { type: 'page', messageId: 'landing-1', anonymousId: 'phone_visitor', context: { page: { url: click.landingUrl }, traits: { email: 'fern@lover.example' } } },
        { type: 'identify', messageId: 'who-1', userId: 'fern_lover', anonymousId: 'desk_visitor', traits: { email: 'fern@lover.example' } },
      ])
    ).status,
  ).toBe(200);
  expect((await send([order('order-1', 'F-1001', 59.9)])).status).toBe(200);
  conversions.delivered = (await settled('F-1001')).id;
  expect((await send([order('order-3', 'F-1003', '12,50'), order('order-4', 'F-1004', 20), order('order-5', 'F-1005', 30)])).status).toBe(200);
  expect((await send([{ type: 'track', messageId: 'cart-1', event: 'add_to_cart', anonymousId: 'desk_visitor', userId: 'fern_lover', properties: { event_id: 'cart-1' } }])).status).toBe(200);
  expect((await send([{ ...order('order-2', 'F-1002', 12, 'walk_in'), anonymousId: 'walk_in_visitor', context: {} }])).status).toBe(200);
  // The shop's webhook sends the first order again; an event no rule maps.
  expect((await send([order('order-1-again', 'F-1001', 59.9), { type: 'track', messageId: 'wish-1', event: 'add_to_wishlist', anonymousId: 'desk_visitor' }])).status).toBe(200);
  conversions.warning = (await settled('F-1003')).id;
  conversions.failed = (await settled('F-1004')).id;
  conversions.skipped = (await settled('F-1002')).id;
  await settled('F-1005');
  await settled('cart-1');
  expect((await pipeline.repos.conversions.find(conversions.failed))?.status).toBe('failed');
  // Refused: a field missing, and the tag on a site that is not an allowed origin.
  expect((await send([{ type: 'track', messageId: 'broken-1', userId: 'u' }])).status).toBe(400);
  expect((await send([{ type: 'page', messageId: 'elsewhere-1', anonymousId: 'x' }], { origin: 'https://copycat.example' }, browserKey)).status).toBe(403);
  for (let attempt = 0; attempt < 100 && (await pipeline.repos.ingestRefusals.list(workspaceId, { limit: 5 })).length < 2; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));

  await admin('POST', '/tiktok/stats/pull');
  for (let attempt = 0; attempt < 200 && (await pipeline.repos.tiktokConnections.summary(workspaceId))?.statsPulledAt == null; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 250));

  // An incident, told by mail and (not) by a webhook that answers 500.
  await pipeline.repos.alertSettings.put(workspaceId, { ...DEFAULT_ALERT_SETTINGS, failedSharePercent: 10, emailEnabled: true, emailRecipients: ['ops@fern.example'], webhookUrl: webhook.url });
  webhook.answerWith(500);
  await evaluateAlerts(pipeline.deps);
  expect(await pipeline.repos.alertIncidents.openConditions(workspaceId)).toEqual(['failed_deliveries']);
}

beforeAll(async () => {
  sink = await startTestMailSink();
  webhook = await startWebhookReceiver();
  session = await startConsoleInBrowser({ artifacts: 'console-walk', pipeline: { smtpUrl: sink.url } });
  ({ page, workspaceId } = session);
  await seed();
  failures = watchFailures(page, session.ingestUrl);
});

afterAll(() =>
  closeAll(
    () => session?.close(),
    () => sink?.close(),
    () => webhook?.close(),
  ),
);

/** Each page of the walk: where it is, and something on it that says it has drawn its data. */
const PAGES: [name: string, path: () => string, drawn: (page: Page) => Promise<unknown>][] = [
  ['overview', () => 'overview?period=7d', (p) => p.getByRole('row').filter({ hasText: 'CompletePayment' }).first().waitFor()],
  ['sources', () => 'sources', (p) => p.getByText('Permissions').waitFor()],
  ['rules', () => 'rules', (p) => p.getByRole('heading', { name: 'add_to_cart → AddToCart' }).waitFor()],
  ['test-mode', () => 'test', (p) => p.getByRole('heading', { name: 'Verify in TikTok' }).waitFor()],
  ['conversions', () => 'conversions', (p) => p.locator('tr').filter({ hasText: 'F-1004' }).waitFor()],
  ['conversion-delivered', () => `conversions/${conversions.delivered}`, (p) => p.getByRole('heading', { name: 'Timeline' }).waitFor()],
  ['conversion-skipped', () => `conversions/${conversions.skipped}`, (p) => p.getByRole('heading', { name: 'Why: No TikTok click found' }).waitFor()],
  ['conversion-warning', () => `conversions/${conversions.warning}`, (p) => p.getByRole('heading', { name: 'Warnings' }).waitFor()],
  ['conversion-failed', () => `conversions/${conversions.failed}`, (p) => p.getByRole('heading', { name: 'Why: Refused by TikTok' }).waitFor()],
  ['debugger', () => 'debugger', (p) => p.locator('.stream-item.refused').nth(1).waitFor()],
  ['diagnostics', () => 'diagnostics?period=7d', (p) => p.getByRole('heading', { name: 'Why TikTok refused them' }).waitFor()],
  ['people', () => 'people?email=fern%40lover.example', (p) => p.getByRole('heading', { name: 'Ad clicks' }).waitFor()],
  ['ads', () => 'ads?period=7d', (p) => p.locator('.ads-table tbody tr').first().waitFor()],
  ['alerts', () => 'alerts', (p) => p.getByText('Deliveries to TikTok are failing').waitFor()],
  ['settings', () => 'settings', (p) => p.locator('ul.log li').first().waitFor()],
];

/** Opens the page, waits for its data, and returns what the strict checks find at each size, with its screenshots. */
async function walk(role: string, [name, path, drawn]: (typeof PAGES)[number]): Promise<string[]> {
  await session.open(path());
  await drawn(page);
  await page.locator('.loading').first().waitFor({ state: 'detached' });
  const found: string[] = [];
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    found.push(...(await strictProblems(page)).map((problem) => `${role} ${name} ${size.width}: ${problem}`));
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await session.shots(`${role}-${name}`);
  return found;
}

describe('a strict walk of every page', () => {
  it('finds what it looks for: code in prose, an unexplained disabled control, a sideways scroll (on a page made to have them)', async () => {
    await session.signInAs(OWNER);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.evaluate(`(() => {
      const main = document.querySelector('main');
      main.insertAdjacentHTML('beforeend', '<p>Set allowedOrigins or add_to_cart at 2026-11-28T00:41:50.192Z, refused 403, for ws_0123456789 and 7391846250173946281</p>'
        + '<p><code>event_id</code> in code is fine, and so is Fern Ads (7391846250173946281)</p>'
        + '<button disabled>Nothing says why</button><span id="why-here">Because.</span><button disabled aria-describedby="why-here">Says why</button>'
        + '<div style="overflow-x: auto; width: 100px"><div style="width: 400px">wide</div></div>');
    })()`);
    const found = await strictProblems(page);
    expect(found).toEqual([
      'snake_case "add_to_cart" in "Set allowedOrigins or add_to_cart at 2026-11-28T00:41:50.192Z, refused 403, for ws_0123456789 and 7391846250173946281"',
      'camelCase "allowedOrigins" in "Set allowedOrigins or add_to_cart at 2026-11-28T00:41:50.192Z, refused 403, for ws_0123456789 and 7391846250173946281"',
      'a raw timestamp "2026-11-28T00:41" in "Set allowedOrigins or add_to_cart at 2026-11-28T00:41:50.192Z, refused 403, for ws_0123456789 and 7391846250173946281"',
      'an HTTP status as a label "refused 403" in "Set allowedOrigins or add_to_cart at 2026-11-28T00:41:50.192Z, refused 403, for ws_0123456789 and 7391846250173946281"',
      'a Signalbox ID "ws_0123456789" in "Set allowedOrigins or add_to_cart at 2026-11-28T00:41:50.192Z, refused 403, for ws_0123456789 and 7391846250173946281"',
      'a TikTok ID without its name "7391846250173946281" in "Set allowedOrigins or add_to_cart at 2026-11-28T00:41:50.192Z, refused 403, for ws_0123456789 and 7391846250173946281"',
      'disabled without a reason: button "Nothing says why"',
      'scrolls sideways inside: div. (400 > 100)',
    ]);
  });

  it.each([
    ['owner', OWNER],
    ['editor', EDITOR],
    ['viewer', VIEWER],
  ])('as the %s: no code in prose, no raw ID, no unexplained disabled control, no failed request, no sideways scroll', async (role, person) => {
    await session.signInAs(person);
    // Signing in began with the answers that sent the browser to the sign-in page.
    failures.length = 0;
    const found: string[] = [];
    for (const walked of PAGES) found.push(...(await walk(role, walked)));
    await page.goto(`${session.ingestUrl}/console/account`);
    await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    found.push(...(await strictProblems(page)).map((problem) => `${role} account: ${problem}`));
    expect(found).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('names the advertiser, the pixel and the campaign where TikTok gave names, and words the refusals and the repeat', async () => {
    await session.signInAs(OWNER);
    failures.length = 0;
    await session.open('settings');
    await page.getByText('Chose the TikTok advertiser “').first().waitFor();
    await page.getByText('Chose the pixel “').first().waitFor();
    await session.open('overview');
    await page.getByText('Conversions go to the pixel “').waitFor();
    await session.open('people?email=fern%40lover.example');
    await page.getByText(/campaign “Spring sale”/).waitFor();
    await session.open('debugger');
    const refused = page.locator('.stream-item.refused').filter({ hasText: 'https://copycat.example is not an allowed origin' });
    await refused.getByRole('link', { name: 'Sources: allowed origins' }).click();
    await page.getByRole('heading', { name: 'Allowed origins' }).waitFor();
    await session.open('debugger');
    await page.locator('.stream-item').filter({ hasText: 'A repeat of an earlier CompletePayment' }).getByRole('link', { name: 'Open the CompletePayment it repeats' }).waitFor();
    expect(failures).toEqual([]);
  });
});
