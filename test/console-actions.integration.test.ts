import type { Page } from 'playwright-core';
import { createConversionRetryService } from '../api/services/conversion-retry';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';
import type { TestPipeline } from './helpers/pipeline';

/**
 * Issue 20's actions in Chromium: "Send again" by the Conversions filter, search by email in any case, a People
 * lookup held in the URL, and the privacy settings (erasure, retention, consent, exchange rates), as an owner and
 * as a viewer who sees them disabled with the reason.
 */
let session: ConsoleInBrowser;
let pipeline: TestPipeline;
let page: Page;
let workspaceId: string;
let ingestUrl: string;
let secretKey: string;

const VIEWER = { email: 'viewer@fern.example', password: 'another long passphrase' };

function admin(method: string, url: string, body?: unknown) {
  return fetch(`${ingestUrl}/admin/workspaces/${workspaceId}${url}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function send(batch: object[]) {
  const answer = await fetch(`${ingestUrl}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
  expect(answer.status).toBe(200);
}

const settledConversion = (eventId: string) => session.settledConversion(eventId);

/** A visitor who came from a TikTok ad, then bought: delivered once TikTok is connected. */
const landingAndPurchase = (visitor: string, order: string, email: string) => [
  { type: 'page', messageId: `land-${order}`, anonymousId: visitor, context: { page: { url: `https://fern.example/?ttclid=E.C.P.${order}` } } },
  { type: 'track', messageId: `buy-${order}`, event: 'purchase', anonymousId: visitor, properties: { order_id: order, total: 25, currency: 'EUR' }, context: { traits: { email } } },
];

beforeAll(async () => {
  session = await startConsoleInBrowser({
    artifacts: 'console-actions',
    // "Send again" wakes the workspace's workflow of the real pipeline, as in production.
    app: (started) => ({ conversionRetry: createConversionRetryService({ db: started.database.db, repos: started.repos, pipelines: started.waker }) }),
  });
  ({ pipeline, page, workspaceId, ingestUrl } = session);
  secretKey = ((await (await admin('POST', '/api-keys', { name: 'backend' })).json()) as { key: string }).key;
  expect((await admin('PUT', '/conversion-rules/purchase', {})).status).toBe(200);
  // TikTok is not connected yet: these are skipped for it.
  await send([
    ...landingAndPurchase('moss-phone', 'G-2001', 'Moss.Lover@fern.example'),
    ...landingAndPurchase('moss-laptop', 'G-2002', 'moss.lover@fern.example'),
    ...landingAndPurchase('oak-phone', 'G-2003', 'oak@fern.example'),
  ]);
  for (const order of ['G-2001', 'G-2002', 'G-2003']) expect(await settledConversion(order)).toMatchObject({ status: 'skipped', reason: 'tiktok_not_connected' });
  await session.signInAsOwner();
});

afterAll(() => session?.close());

describe('the console’s actions in Chromium', () => {
  it('sends again by the current filter after a confirmation naming how many, and the table follows them by itself', async () => {
    await pipeline.repos.tiktokConnections.put(workspaceId, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    // Connected now: a purchase without a click is skipped for that, and sending it again could only skip it again.
    await send([{ type: 'track', messageId: 'buy-G-2004', event: 'purchase', userId: 'walk-in', properties: { order_id: 'G-2004', total: 9, currency: 'EUR' } }]);
    expect(await settledConversion('G-2004')).toMatchObject({ status: 'skipped', reason: 'no_ttclid' });
    await session.open('conversions?status=skipped');
    await page.locator('tr').filter({ hasText: 'G-2003' }).getByText('TikTok not connected').waitFor();
    await page.getByRole('button', { name: 'Send again…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send again by this filter?' });
    await dialog.getByText('3 conversions will be sent again.').waitFor();
    await dialog.getByText('1 other conversion matches but is left out').waitFor();
    await session.shots('01-send-again-confirm');
    await dialog.getByRole('button', { name: 'Send 3 conversions again' }).click();
    await session.toast('3 conversions sent again');

    // Without a reload: the filter shows skipped ones, so the three leave the table and the one without a click stays.
    await page.locator('tr').filter({ hasText: 'G-2001' }).waitFor({ state: 'detached' });
    for (const order of ['G-2001', 'G-2002', 'G-2003']) expect(await settledConversion(order)).toMatchObject({ status: 'delivered' });
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.getByText('Sent 3 conversions again by filter').waitFor();
    await session.open('conversions');
    await page.locator('tr').filter({ hasText: 'G-2001' }).getByText('delivered').waitFor();
    await session.shots('02-conversions-after-send-again');

    const skipped = await settledConversion('G-2004');
    await session.open(`conversions/${skipped.id}`);
    await page.getByText('Not offered to send again: no TikTok click is known for this person').waitFor();
    expect(await page.getByRole('button', { name: 'Send again' }).count()).toBe(0);
  });

  it('follows the table by itself while a conversion it shows is pending', async () => {
    await pipeline.database.db('conversions').where({ workspace_id: workspaceId, event_id: 'G-2003' }).update({ status: 'failed', reason: 'delivery_retries_exhausted' });
    await session.open('conversions');
    const row = page.locator('tr').filter({ hasText: 'G-2003' });
    await row.getByText('failed').waitFor();
    await page.getByRole('button', { name: 'Send again…' }).click();
    await page.getByRole('dialog').getByText('1 conversion will be sent again.').waitFor();
    await page.getByRole('button', { name: 'Send 1 conversion again' }).click();
    await session.toast('1 conversion sent again');
    await row.getByText('delivered').waitFor();
  });

  it('finds a person’s conversions by their email typed in another case', async () => {
    await session.open('conversions');
    await page.getByLabel('Search').fill('MOSS.lover@Fern.EXAMPLE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=MOSS\.lover%40Fern\.EXAMPLE/);
    await page.locator('tr').filter({ hasText: 'G-2004' }).waitFor({ state: 'detached' });
    expect((await page.locator('tbody tr').allTextContents()).map((row) => /G-\d{4}/.exec(row)?.[0]).sort()).toEqual(['G-2001', 'G-2002']);
    await session.shots('03-search-by-email');
    await page.getByLabel('Search').fill('g-2003');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('tr').filter({ hasText: 'G-2001' }).waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('G-2003')]);
  });

  it('holds a People lookup in the URL: it reloads, and its results link to the person’s conversions', async () => {
    await session.open('people');
    await page.getByLabel('Value').fill('Moss.Lover@fern.example');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.waitForURL(/people\?email=Moss\.Lover%40fern\.example$/);
    await page.getByRole('heading', { name: 'Devices (visitors)' }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'moss-laptop' }).first().waitFor();
    expect(await page.getByLabel('Value').inputValue()).toBe('Moss.Lover@fern.example');
    await session.shots('04-people-from-url');

    await page.getByRole('link', { name: "All of this person's conversions, with filters" }).click();
    await page.waitForURL(/conversions\?q=Moss\.Lover%40fern\.example$/);
    await page.locator('tr').filter({ hasText: 'G-2002' }).waitFor();
    await page.goBack();
    await page.getByRole('region', { name: 'Devices (visitors)' }).getByRole('link', { name: 'moss-phone' }).click();
    await page.waitForURL(/conversions\?q=moss-phone$/);
    await page.locator('tr').filter({ hasText: 'G-2001' }).waitFor();
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('G-2001')]);
  });

  it('erases a person from Settings after a confirmation: their events and profile are gone from the database', async () => {
    await send([
      { type: 'identify', messageId: 'leaving-identify', anonymousId: 'leaving-visitor', userId: 'leaving-user', traits: { email: 'leaving@fern.example' } },
      { type: 'page', messageId: 'leaving-page', anonymousId: 'leaving-visitor', context: { page: { url: 'https://fern.example/about' } } },
    ]);
    const db = pipeline.database.db;
    expect(await db('events').where({ workspace_id: workspaceId, anonymous_id: 'leaving-visitor' }).count<{ count: string }[]>('* as count')).toEqual([{ count: '2' }]);
    await session.open('settings');
    const dialog = page.getByRole('dialog', { name: 'Erase this person?' });
    await page.getByLabel('Their email').fill('leaving at fern');
    await page.getByRole('button', { name: 'Erase…' }).click();
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    await page.getByText('is not an email address (nor the SHA-256 of one)').waitFor();
    await page.getByLabel('Their email').fill('Leaving@Fern.example');
    await page.getByRole('button', { name: 'Erase…' }).click();
    await dialog.getByText('Everything linked to the email Leaving@Fern.example is deleted now').waitFor();
    await session.shots('05-erase-confirm');
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    await session.toast('The person is erased');
    await page.getByRole('status').getByText("Erased one person's data: 2 events deleted, 1 visitor profile").waitFor();
    expect(await page.getByLabel('Their email').inputValue()).toBe('');
    expect(await db('events').where({ workspace_id: workspaceId, anonymous_id: 'leaving-visitor' }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    expect(await db('events').where({ workspace_id: workspaceId, user_id: 'leaving-user' }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    expect(await db('visitors').where({ workspace_id: workspaceId, anonymous_id: 'leaving-visitor' }).first()).toBeUndefined();
    await page.locator('ul.log').getByText("Erased one person's data: 2 events deleted, 1 visitor profile").waitFor();
    await session.shots('06-settings-erased');
  });

  it('saves retention (after a refused value, with one click), consent and an exchange rate', async () => {
    await session.open('settings');
    await session.refusedThenOneClick(page.getByLabel('Keep raw events for (days)'), { value: '0', message: 'must be a whole number of days from 1 to 3650' }, '14', 'Save retention');
    await session.toast('Retention saved');
    await page.getByRole('switch', { name: /Require consent/ }).click({ force: true });
    await session.toast('Consent is now required before tracking');
    await page.getByLabel('Add a currency (ISO code)').fill('eur');
    await page.getByLabel(/Its rate in/).fill('1.08');
    await page.getByRole('button', { name: 'Save exchange rates' }).click();
    await session.toast('Exchange rates saved');
    await page.getByLabel(/^1 EUR in/).waitFor();
    const saved = await pipeline.database.db('workspaces').where({ id: workspaceId }).first();
    expect(saved).toMatchObject({ event_retention_days: 14, consent_required: true, exchange_rates: { EUR: '1.08' } });
    await page.getByText('Set the exchange rates to EUR 1.08').waitFor();
    await page.getByText('Required consent before tracking').waitFor();
    await page.getByText('Changed how long events are kept to 14 days').waitFor();
    await session.shots('07-settings-saved');
  });

  it('keeps the setup status line’s room while it loads, so that a page does not move down when it arrives', async () => {
    await session.open('people');
    await page.getByRole('complementary', { name: 'Setup progress' }).waitFor();
    // The line arrives well after the page: a full load of another page, its setup request held back.
    let releaseSetup: () => void = () => undefined;
    const setupHeld = new Promise<void>((resolve) => (releaseSetup = resolve));
    await page.route('**/setup', async (route) => {
      await setupHeld;
      await route.continue();
    });
    try {
      await session.open('rules');
      const heading = page.getByRole('heading', { level: 1 });
      await heading.waitFor();
      const before = (await heading.boundingBox())?.y;
      releaseSetup();
      await page.getByRole('complementary', { name: 'Setup progress' }).waitFor();
      expect((await heading.boundingBox())?.y).toBe(before);
    } finally {
      releaseSetup();
      await page.unroute('**/setup');
    }
  });

  it('shows a viewer these actions disabled, with the reason', async () => {
    expect((await admin('POST', '/members', { email: VIEWER.email, role: 'viewer', password: VIEWER.password })).status).toBe(201);
    await session.browser.clearCookies();
    await page.goto(`${ingestUrl}/console/w/${workspaceId}/conversions`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await page.getByLabel('Email').fill(VIEWER.email);
    await page.getByLabel('Password').fill(VIEWER.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(`${ingestUrl}/console/w/${workspaceId}/conversions`);
    expect(await page.getByRole('button', { name: 'Send again…' }).isDisabled()).toBe(true);
    await page.getByText('Your role (viewer) cannot send conversions again: it needs an editor or owner.').waitFor();
    await session.shots('08-viewer-conversions');
    await session.open('settings');
    expect(await page.getByRole('button', { name: 'Erase…' }).isDisabled()).toBe(true);
    await page.getByText('Your role (viewer) cannot erase people: it needs an owner.').waitFor();
    expect(await page.getByRole('button', { name: 'Save retention' }).isDisabled()).toBe(true);
    for (const field of ['Attribution window (days)', 'Keep raw events for (days)', 'Add a currency (ISO code)', 'Their email']) {
      expect(await page.getByLabel(field, { exact: true }).isEditable()).toBe(false);
    }
    await session.shots('09-viewer-settings');
    expect(session.notFound).toEqual([]);
  });
});
