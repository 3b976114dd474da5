import type { Page } from 'playwright-core';
import { FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_CRM_EVENT_SET_ID, FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import type { TestPipeline } from './helpers/pipeline';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * Issue 45 in Chromium: Sources > TikTok. Besides the pixel, the owner chooses the advertiser's Offline Event Set and
 * CRM Event Set from TikTok's lists; with a token TikTok will not list them for, the page names the permission
 * missing and takes the ID instead.
 */
let session: ConsoleInBrowser;
let pipeline: TestPipeline;
let page: Page;
let workspaceId: string;
let ingestUrl: string;

beforeAll(async () => {
  session = await startConsoleInBrowser({ artifacts: 'console-event-sets' });
  ({ pipeline, page, workspaceId, ingestUrl } = session);
  await session.signInAsOwner();
});
afterAll(() => session?.close());

const OFFLINE_LABEL = 'Offline Event Set (receives sales in stores and on the phone)';
const CRM_LABEL = 'CRM Event Set (receives leads and sales from your CRM)';

describe('Sources > TikTok event sets in Chromium', () => {
  it("chooses the advertiser's Offline and CRM Event Sets from TikTok's lists", async () => {
    await session.open('sources');
    await page.getByRole('button', { name: 'Connect TikTok' }).click();
    await page.waitForURL(/\/sources\?tiktok=connected$/);
    await page.getByLabel('Advertiser', { exact: true }).selectOption(FAKE_TIKTOK_ADVERTISER_ID);
    await session.toast('Advertiser chosen');

    const offline = page.getByLabel('Offline Event Set', { exact: true });
    await offline.locator(`option[value="${FAKE_TIKTOK_OFFLINE_EVENT_SET_ID}"]`).waitFor({ state: 'attached' });
    expect(await offline.locator('option').allTextContents()).toEqual(['None', `Dev shop stores (${FAKE_TIKTOK_OFFLINE_EVENT_SET_ID})`, 'Dev shop phone orders (7391846250173950002)']);
    await offline.selectOption(FAKE_TIKTOK_OFFLINE_EVENT_SET_ID);
    await session.toast('Offline Event Set chosen');
    const crm = page.getByLabel('CRM Event Set', { exact: true });
    await crm.locator(`option[value="${FAKE_TIKTOK_CRM_EVENT_SET_ID}"]`).waitFor({ state: 'attached' });
    await crm.selectOption(FAKE_TIKTOK_CRM_EVENT_SET_ID);
    await session.toast('CRM Event Set chosen');
    expect(await crm.inputValue()).toBe(FAKE_TIKTOK_CRM_EVENT_SET_ID);
    await page.getByText(OFFLINE_LABEL).scrollIntoViewIfNeeded();
    await session.shots('01-event-sets-listed');

    expect(await pipeline.repos.tiktokConnections.summary(workspaceId)).toMatchObject({
      offlineEventSetId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID,
      offlineEventSetName: 'Dev shop stores',
      crmEventSetId: FAKE_TIKTOK_CRM_EVENT_SET_ID,
      crmEventSetName: 'Dev shop CRM',
    });
    await session.open('settings#change-log');
    await page.getByText('Chose the Offline Event Set “Dev shop stores”').waitFor();
  });

  it('names the permission a token lacks for listing them, and takes the ID instead', async () => {
    await pipeline.fake.registerToken({ accessToken: 'events-only', pixelCodes: [FAKE_TIKTOK_PIXEL_CODE], advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID], scopes: ['5', '8'] });
    const manual = await fetch(`${ingestUrl}/admin/workspaces/${workspaceId}/tiktok`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accessToken: 'events-only', advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE }),
    });
    expect(manual.status).toBe(200);

    await session.open('sources');
    await page.getByText('TikTok has not given Signalbox the permission to read Offline Event Sets (Offline Events Management → Read Offline Events)').waitFor();
    await page.getByText('TikTok has not given Signalbox the permission to read CRM Event Sets (CRM Event Management → Read CRM Event Sets)').waitFor();
    const form = page.getByRole('form', { name: 'Offline Event Set' });
    // The same advertiser: the set chosen with the earlier token stays.
    expect(await form.getByLabel(OFFLINE_LABEL).inputValue()).toBe(FAKE_TIKTOK_OFFLINE_EVENT_SET_ID);
    await form.getByLabel(OFFLINE_LABEL).fill('stores');
    await form.getByRole('button', { name: 'Save Offline Event Set' }).click();
    await form.getByText('must be the event set ID: digits only, e.g. 7123456789012345678').waitFor();
    await form.getByLabel(OFFLINE_LABEL).fill('7391846250173950002');
    await form.getByRole('button', { name: 'Save Offline Event Set' }).click();
    await session.toast('Offline Event Set chosen');
    await page.getByRole('form', { name: 'CRM Event Set' }).getByLabel(CRM_LABEL).waitFor();
    await session.shots('02-event-sets-by-id');
    expect(await pipeline.repos.tiktokConnections.summary(workspaceId)).toMatchObject({ offlineEventSetId: '7391846250173950002', offlineEventSetName: null });
  });
});
