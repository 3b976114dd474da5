/**
 * Issue 45 in Chromium: a shop's conversions from its website, a store (offline) and its CRM, told apart on the
 * Conversions page (a Source column and filter kept in the address), on a conversion's page (where it was sent) and on
 * Diagnostics and the Overview's match quality (by source, with a word on how TikTok matches offline and CRM sales).
 * The orders go through the whole pipeline; their sources are then set on the stored rows, as the rules' destination
 * would. Screenshots under `test-artifacts/console-conversion-sources/`.
 */
import type { Page } from 'playwright-core';
import { FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { strictProblems, watchFailures } from './helpers/strict-walk';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';

jest.setTimeout(180_000);

let session: ConsoleInBrowser;
let page: Page;
let failures: string[];
let storeSale: string;

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${session.ingestUrl}/admin/workspaces/${session.workspaceId}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

beforeAll(async () => {
  session = await startConsoleInBrowser({ artifacts: 'console-conversion-sources' });
  ({ page } = session);
  const { pipeline, ingestUrl } = session;
  const { url } = (await admin('POST', '/tiktok/oauth/authorize')) as { url: string };
  expect((await fetch(url)).status).toBe(200);
  await admin('PUT', '/tiktok/advertiser', { advertiserId: FAKE_TIKTOK_ADVERTISER_ID });
  await admin('PUT', '/tiktok/pixel', { pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  await admin('PATCH', '/settings', { matchWithoutClick: true });
  await admin('PUT', '/conversion-rules/purchase', {});
  const key = ((await admin('POST', '/api-keys', { name: 'backend' })) as { key: string }).key;
  const orders = ['W-1', 'W-2', 'P-1', 'C-1'].map((orderId) => ({
    type: 'track',
    messageId: `order-${orderId}`,
    event: 'purchase',
    userId: `customer-${orderId}`,
    properties: { order_id: orderId, total: 30, currency: 'EUR' },
    context: { traits: { email: `${orderId.toLowerCase()}@fern.example` } },
  }));
  const response = await fetch(`${ingestUrl}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch: orders }) });
  expect(response.status).toBe(200);
  for (const orderId of ['W-1', 'W-2', 'P-1', 'C-1']) expect((await session.settledConversion(orderId)).status).toBe('delivered');
  const conversions = () => pipeline.database.db('conversions').where({ workspace_id: session.workspaceId });
  await conversions().where({ event_id: 'P-1' }).update({ event_source: 'offline' });
  await conversions().where({ event_id: 'C-1' }).update({ event_source: 'crm' });
  storeSale = (await session.settledConversion('P-1')).id;
  await session.signInAsOwner();
  failures = watchFailures(page, ingestUrl);
});

afterAll(() => session?.close());

/** The order IDs the Conversions table lists, once it shows `count` rows. */
async function listed(count: number): Promise<string[]> {
  // The previous filter's rows stay until the new ones arrive.
  await page.waitForFunction((rows) => {
    const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } };
    return document.querySelectorAll('tbody tr').length === rows;
  }, count);
  return (await page.locator('tbody tr td:nth-child(6)').allInnerTexts()).sort();
}

describe('conversions by source in the console', () => {
  it('shows each conversion’s source in words and filters by it, the filter kept in the address', async () => {
    await session.open('conversions');
    expect(await listed(4)).toEqual(['C-1', 'P-1', 'W-1', 'W-2']);
    await page.locator('tr').filter({ hasText: 'P-1' }).getByText('Offline (store and phone)').waitFor();
    await page.locator('tr').filter({ hasText: 'C-1' }).getByText('CRM', { exact: true }).waitFor();
    await page.locator('select[name="source"]').selectOption({ label: 'Offline (store and phone)' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/[?&]source=offline/);
    expect(await listed(1)).toEqual(['P-1']);
    // Reloaded, the filter is still chosen.
    await page.reload();
    expect(await page.locator('select[name="source"] option:checked').innerText()).toBe('Offline (store and phone)');
    expect(await listed(1)).toEqual(['P-1']);
    expect(await strictProblems(page)).toEqual([]);
    await session.shots('01-conversions-offline');
  });

  it('says on the conversion’s page where it was sent, and how TikTok matches it', async () => {
    await session.open(`conversions/${storeSale}`);
    await page.getByText('From: Offline (store and phone) · Sent to your Offline Event Set').waitFor();
    await page.getByText(/carry no ad click and no browser cookie/).first().waitFor();
    expect(await strictProblems(page)).toEqual([]);
    await session.shots('02-conversion-offline');
  });

  it('gives Diagnostics by source, each source opening its conversions', async () => {
    await session.open('diagnostics');
    const bySource = page.locator('section').filter({ has: page.getByRole('heading', { name: 'By source' }) });
    await bySource.locator('li').nth(2).waitFor();
    expect(await bySource.locator('li').allInnerTexts()).toEqual([
      'Website: 2 received, 2 delivered, 0 failed, 0 skipped',
      'Offline (store and phone): 1 received, 1 delivered, 0 failed, 0 skipped',
      'CRM: 1 received, 1 delivered, 0 failed, 0 skipped',
    ]);
    await page.getByText(/Offline and CRM conversions carry no ad click/).waitFor();
    await page.locator('select[name="source"]').selectOption({ label: 'CRM' });
    await page.waitForURL(/[?&]source=crm/);
    const payment = page.locator('section.diagnostic').filter({ has: page.getByRole('heading', { name: 'CompletePayment', exact: true }) });
    await payment.getByText('1 conversion made from your events by its rules').waitFor();
    expect(await strictProblems(page)).toEqual([]);
    await session.shots('03-diagnostics-crm');
    await payment.getByRole('link', { name: '1 conversion', exact: true }).click();
    await page.waitForURL(/[?&]source=crm/);
    expect(await listed(1)).toEqual(['C-1']);
  });

  it('estimates match quality per TikTok event and source on the Overview', async () => {
    await session.open('overview');
    const table = page.getByRole('table', { name: 'Estimated match quality per TikTok event and source' });
    await table.locator('tbody tr').nth(2).waitFor();
    expect((await table.locator('tbody tr td:nth-child(2)').allInnerTexts()).sort()).toEqual(['CRM', 'Offline (store and phone)', 'Website']);
    await session.shots('04-match-quality-by-source');
    expect(failures).toEqual([]);
  });
});
