import type { Page } from 'playwright-core';
import type { ConversionRow } from '../db/types';
import { FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';
import type { TestPipeline } from './helpers/pipeline';

const SPRING_SALE = '1800000000000000001';
const RETARGETING = '1810000000000000002';
const CAROUSEL_AD = '1820000000000000003';
const VIEWER = { email: 'viewer@fern.example', password: 'another long passphrase' };

jest.setTimeout(180_000);

let session: ConsoleInBrowser;
let pipeline: TestPipeline;
let page: Page;
let workspaceId: string;
let secretKey: string;

const admin = (method: string, url: string, body?: unknown) =>
  fetch(`${session.ingestUrl}${url}`, { method, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const send = (batch: object[]) =>
  fetch(`${session.ingestUrl}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });

async function settledConversions(messageId: string, count: number): Promise<ConversionRow[]> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const rows = (await pipeline.database.db('conversions').where({ workspace_id: workspaceId, message_id: messageId }).orderBy('rule_event_index')) as ConversionRow[];
    if (rows.length === count) return Promise.all(rows.map((row) => pipeline.settled(row)));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the conversions of ${messageId} never appeared`);
}

beforeAll(async () => {
  session = await startConsoleInBrowser({ artifacts: 'console-ads' });
  ({ pipeline, page, workspaceId } = session);
  await session.signInAsOwner();
  secretKey = ((await (await admin('POST', `/admin/workspaces/${workspaceId}/api-keys`, { name: 'backend' })).json()) as { key: string }).key;
  expect((await admin('PUT', `/admin/workspaces/${workspaceId}/conversion-rules/purchase`, { alsoSendAs: ['PlaceAnOrder'] })).status).toBe(200);
});

afterAll(() => session?.close());

describe('ad performance and the event debugger in Chromium', () => {
  it('says before TikTok is connected that there are no figures yet, links to Sources, and offers no Pull now', async () => {
    const failed: string[] = [];
    const record = (response: { status(): number; url(): string }) => response.status() >= 400 && failed.push(response.url());
    page.on('response', record);
    await session.open('ads?period=7d');
    await page.getByText('This workspace is not connected to TikTok').waitFor();
    expect(await page.getByRole('button', { name: 'Pull now' }).count()).toBe(0);
    await session.shots('00-ads-not-connected');
    await page.getByRole('link', { name: 'Connect TikTok on Sources' }).click();
    await page.getByRole('button', { name: 'Connect TikTok' }).waitFor();
    page.off('response', record);
    expect(failed).toEqual([]);
  });

  it('connects TikTok through OAuth against the fake, and a purchase from an ad click is delivered', async () => {
    await session.open('sources');
    await page.getByRole('button', { name: 'Connect TikTok' }).click();
    await page.waitForURL(/\/sources\?tiktok=connected$/);
    await page.getByLabel('Advertiser', { exact: true }).selectOption(FAKE_TIKTOK_ADVERTISER_ID);
    await session.toast('Advertiser chosen');
    const pixel = page.getByLabel('Pixel', { exact: true });
    await pixel.locator(`option[value="${FAKE_TIKTOK_PIXEL_CODE}"]`).waitFor({ state: 'attached' });
    await pixel.selectOption(FAKE_TIKTOK_PIXEL_CODE);
    await page.getByText('Choose the pixel that receives conversions below.').waitFor({ state: 'detached' });

    const click = await pipeline.fake.click(CAROUSEL_AD);
    const purchase = (messageId: string) => ({ type: 'track', messageId, event: 'purchase', anonymousId: 'phone-visitor', properties: { order_id: 'F-2001', total: 45, currency: 'USD' } });
    expect((await send([{ type: 'page', messageId: 'landing-1', anonymousId: 'phone-visitor', context: { page: { url: click.landingUrl } } }])).status).toBe(200);
    expect((await send([purchase('order-1')])).status).toBe(200);
    expect((await settledConversions('order-1', 2)).map((c) => [c.tiktok_event, c.status])).toEqual([
      ['CompletePayment', 'delivered'],
      ['PlaceAnOrder', 'delivered'],
    ]);
    // The shop's webhook sends the order again, and an event no rule maps arrives.
    expect((await send([purchase('order-1-resent'), { type: 'track', messageId: 'wish-1', event: 'wishlist', anonymousId: 'phone-visitor' }])).status).toBe(200);
  });

  it('shows in the debugger the conversions an event became, the message a repeat repeated, and a link to make a missing rule', async () => {
    await session.open('debugger');
    const item = (text: string) => page.locator('.stream-item').filter({ hasText: text });
    const order = item('Became 2 conversions: CompletePayment, PlaceAnOrder.');
    await order.waitFor();
    await item('A repeat of an earlier CompletePayment').getByRole('link', { name: 'Open the CompletePayment it repeats' }).waitFor();
    await item('A page view').waitFor();
    await item('No conversion rule matches wishlist').getByRole('link', { name: 'Create a rule for wishlist' }).waitFor();
    await session.shots('01-debugger-outcomes');

    await order.getByRole('link', { name: 'Open the PlaceAnOrder conversion' }).click();
    await page.getByRole('heading', { name: /^PlaceAnOrder/ }).waitFor();
    await page.getByText('F-2001:PlaceAnOrder').first().waitFor();

    await session.open('debugger');
    await item('A repeat of an earlier CompletePayment').getByRole('link').click();
    await page.getByRole('heading', { name: /^CompletePayment/ }).waitFor();

    await session.open('debugger');
    await item('No conversion rule matches wishlist').getByRole('link').click();
    await page.getByRole('heading', { name: 'Add a rule' }).waitFor();
    expect(await page.getByLabel('Your event').inputValue()).toBe('wishlist');
  });

  it('pulls the statistics from the page, and the page fills in by itself when they arrive', async () => {
    expect((await pipeline.repos.tiktokConnections.summary(workspaceId))?.statsPulledAt).toBeNull();
    await session.open('ads?period=7d');
    await page.getByText('No statistics for this period yet').or(page.locator('table')).first().waitFor();
    await page.getByRole('button', { name: 'Pull now' }).click();
    await session.toast('Pulling TikTok’s figures now: this page refreshes when they arrive');
    await session.toast('TikTok’s latest figures are in');
    // The notice that the pull runs goes when the figures are in, not seconds later.
    expect(await page.getByRole('alertdialog', { name: 'Pulling TikTok’s figures now: this page refreshes when they arrive' }).count()).toBe(0);
    const spring = page.locator('tr').filter({ hasText: 'Spring sale' });
    await spring.waitFor();
    expect(await pipeline.database.db('change_log').where({ workspace_id: workspaceId, action: 'tiktok.stats_pull' }).first('actor')).toEqual({ actor: expect.stringMatching(/^user:usr_/) });

    // TikTok's ROAS and Signalbox's, side by side, each labelled; a campaign TikTok credits with nothing shows a dash that says why.
    await page.getByRole('columnheader', { name: 'TikTok ROAS' }).waitFor();
    await page.getByRole('columnheader', { name: 'Signalbox ROAS' }).waitFor();
    const brand = page.locator('tr').filter({ hasText: 'Brand awareness' });
    await brand.getByRole('button', { name: /^No figure: TikTok attributed no conversion/ }).waitFor();
    // TikTok ROAS, then Signalbox's delivered, value and ROAS: no 0 posing as a return.
    expect((await brand.locator('td').allTextContents()).slice(-4)).toEqual(['—', '0', '–', '—']);
    // Each campaign's status as Ads Manager words it, and a totals row: the clicks and spend of every campaign summed.
    const statuses = await page.locator('tbody td[data-label="Status"]').allTextContents();
    expect(statuses.length).toBeGreaterThan(1);
    for (const status of statuses) expect(status).toMatch(/^(Active|Paused)$/);
    const figures = async (where: string, label: string) => (await page.locator(`${where} td[data-label^="${label}"]`).allTextContents()).map((text) => Number(text.replace(/[^\d.]/g, '')));
    expect(await page.locator('tfoot td').first().textContent()).toBe('Total');
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(await figures('tfoot', 'TikTok: Clicks')).toEqual([sum(await figures('tbody', 'TikTok: Clicks'))]);
    const [spendTotal] = await figures('tfoot', 'TikTok: Spend');
    expect(spendTotal).toBeCloseTo(sum(await figures('tbody', 'TikTok: Spend')), 2);
    await session.shots('02-ads-campaigns');
  });

  it('drills into a campaign and an ad group named in the breadcrumb, keeps the drill-down when the period changes, and exports only what is on screen', async () => {
    const crumbs = page.getByRole('navigation', { name: 'Drill-down' });
    await page.locator('tr').filter({ hasText: 'Spring sale' }).getByRole('link', { name: 'Spring sale' }).click();
    await page.getByRole('columnheader', { name: 'Ad group' }).waitFor();
    await crumbs.getByText('Spring sale', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Spring sale – retargeting' }).click();
    await page.getByRole('columnheader', { name: 'Ad', exact: true }).waitFor();
    await crumbs.getByRole('link', { name: 'Spring sale', exact: true }).waitFor();
    await crumbs.getByText('Spring sale – retargeting').waitFor();
    expect(new URL(page.url()).searchParams.get('adgroup')).toBe(RETARGETING);

    await page.getByRole('button', { name: 'Last 28 days' }).click();
    await page.waitForURL(/period=28d/);
    const address = new URL(page.url()).searchParams;
    expect([address.get('campaign'), address.get('adgroup')]).toEqual([SPRING_SALE, RETARGETING]);
    await crumbs.getByText('Spring sale – retargeting').waitFor();
    const carousel = page.locator('tr').filter({ hasText: 'Spring sale carousel' });
    await carousel.waitFor();
    expect(await page.locator('.ads-table tbody tr').count()).toBe(1);

    const exportLink = page.getByRole('link', { name: 'Export CSV: the ads of Spring sale – retargeting' });
    const csv = await page.request.get(`${session.ingestUrl}${await exportLink.getAttribute('href')}`);
    expect(csv.headers()['content-disposition']).toMatch(new RegExp(`^attachment; filename="signalbox-ads-of-adgroup-${RETARGETING}-\\d{4}-\\d\\d-\\d\\d-\\d{4}-\\d\\d-\\d\\d\\.csv"$`));
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual(['Spring sale carousel']);
    expect(lines[0]).toBe(
      'Date,Level,Name,ID,Campaign ID,Ad group ID,Spend,Impressions,Clicks,CPC,CTR (%),Conversions (TikTok),Conversion value (TikTok),ROAS (TikTok),Delivered conversions (Signalbox),Delivered value (Signalbox),ROAS (Signalbox)',
    );
    // Signalbox delivered the 45 USD order for this ad as CompletePayment and as PlaceAnOrder: two conversions, its value once.
    const cells = Object.fromEntries((lines[0] as string).split(',').map((column, i) => [column, (lines[1] as string).split(',')[i]]));
    const spend = Number(cells.Spend);
    expect(spend).toBeGreaterThan(0);
    expect([cells['Delivered conversions (Signalbox)'], cells['Delivered value (Signalbox)']]).toEqual(['2', '45']);
    expect(Number(cells['ROAS (Signalbox)'])).toBeCloseTo(45 / spend, 4);
    const [delivered, value, roas] = (await carousel.locator('td').allTextContents()).slice(-3);
    expect([delivered, value]).toEqual(['2', '45.00']);
    expect(Number(roas?.replaceAll(',', ''))).toBeCloseTo(45 / spend, 2);
    await session.shots('03-ads-ad-group');
  });

  it('counts on the overview each TikTok event the order was delivered as (it shows no value)', async () => {
    await session.open('overview');
    await page.getByText('Delivered in this period: 2 with a TikTok click inside the attribution window.').waitFor();
    await session.shots('04-overview');
  });

  it('shows a viewer “Pull now” disabled, with the reason', async () => {
    expect((await admin('POST', `/admin/workspaces/${workspaceId}/members`, { ...VIEWER, role: 'viewer' })).status).toBe(201);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByLabel('Email').fill(VIEWER.email);
    await page.getByLabel('Password').fill(VIEWER.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(/\/console\/w\//);
    await session.open('ads?period=7d');
    await page.locator('tr').filter({ hasText: 'Spring sale' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pull now' }).isDisabled()).toBe(true);
    await page.getByText('Your role (viewer) cannot pull figures now (they are pulled every hour by themselves): it needs an editor or owner.').waitFor();
  });
});
