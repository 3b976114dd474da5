/**
 * The Diagnostics page in Chromium, over conversions a shop sends through the whole pipeline to the fake TikTok: one
 * from an ad click with its contents, one delivered without a click and without contents, one TikTok refuses, and the
 * first order sent again. Each figure opens the conversions it counts. Screenshots under
 * `test-artifacts/console-diagnostics/`.
 */
import type { Page } from 'playwright-core';
import { EVENT_TRACK_PATH, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { watchFailures } from './helpers/strict-walk';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';

jest.setTimeout(180_000);

const CAROUSEL_AD = '1820000000000000003';

let session: ConsoleInBrowser;
let page: Page;
let failures: string[];

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
  session = await startConsoleInBrowser({ artifacts: 'console-diagnostics' });
  ({ page } = session);
  const { pipeline, ingestUrl } = session;
  const { url } = (await admin('POST', '/tiktok/oauth/authorize')) as { url: string };
  expect((await fetch(url)).status).toBe(200);
  await admin('PUT', '/tiktok/advertiser', { advertiserId: FAKE_TIKTOK_ADVERTISER_ID });
  await admin('PUT', '/tiktok/pixel', { pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  await admin('PATCH', '/settings', { matchWithoutClick: true });
  await admin('PUT', '/conversion-rules/purchase', {});
  await admin('PUT', '/conversion-rules/signup', {});
  const key = ((await admin('POST', '/api-keys', { name: 'backend' })) as { key: string }).key;
  const send = async (batch: object[]) => {
    const response = await fetch(`${ingestUrl}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
    expect(response.status).toBe(200);
  };
  const order = (messageId: string, orderId: string, anonymousId: string, properties: object = {}) => ({
    type: 'track',
    messageId,
    event: 'purchase',
    anonymousId,
    properties: { order_id: orderId, total: 30, currency: 'EUR', ...properties },
    context: { traits: { email: `${anonymousId}@fern.example` } },
  });
  const click = await pipeline.fake.click(CAROUSEL_AD);
  await pipeline.fake.injectFaults([{ path: EVENT_TRACK_PATH, bodyIncludes: '"F-3"', code: 40002, message: 'Invalid value for field: event_time.', times: 10 }]);
  await send([{ type: 'page', messageId: 'landing-1', anonymousId: 'desk', context: { page: { url: click.landingUrl } } }]);
  await send([order('order-1', 'F-1', 'desk', { products: [{ product_id: 'fern-1', price: 30, quantity: 1 }] })]);
  await send([order('order-2', 'F-2', 'walk-in')]);
  await send([order('order-3', 'F-3', 'desk', { products: [{ product_id: 'fern-3', price: 30, quantity: 1 }] })]);
  await send([order('order-1-again', 'F-1', 'desk')]);
  expect([(await session.settledConversion('F-1')).status, (await session.settledConversion('F-2')).sent_without_click, (await session.settledConversion('F-3')).status]).toEqual(['delivered', true, 'failed']);
  await session.signInAsOwner();
  failures = watchFailures(page, ingestUrl);
});

afterAll(() => session?.close());

const card = (event: string) => page.locator('section.diagnostic').filter({ has: page.getByRole('heading', { name: event, exact: true }) });
/** The event IDs the Conversions table lists, once it shows `count` rows. */
async function listed(count: number): Promise<string[]> {
  await page.locator('tbody tr').nth(count - 1).waitFor();
  expect(await page.locator('tbody tr').count()).toBe(count);
  return (await page.locator('tbody tr td:nth-child(6)').allInnerTexts()).sort();
}

describe('the Diagnostics page', () => {
  it('shows each TikTok event’s figures, TikTok’s refusal in words with an example, and an event that had none', async () => {
    await session.open('diagnostics');
    const payment = card('CompletePayment');
    await payment.getByText('Why TikTok refused them').waitFor();
    expect(await payment.locator('dl.figures').innerText()).toEqual(
      [
        'Received',
        '3 conversions made from your events by its rules',
        'Delivered',
        '2',
        'Not delivered',
        '1 failed · 0 skipped (each conversion’s page says why)',
        'Refused by TikTok',
        '1 of the failed: TikTok answered with an error',
        'Missing recommended parameters',
        '1 of 3 conversions sent lacked one: value 0 · currency 0 · contents (or content IDs) 1',
        'Repeated order or event IDs',
        '1 conversion repeated by 1 later event, which made no conversion',
        'Delivered without a click',
        '50% (1 of 2 delivered had no TikTok click, so TikTok matched them on other keys)',
      ].join('\n'),
    );
    await payment.getByText(/1 conversion: TikTok refused a field of the event: its message names the field.*\(TikTok’s code 40002\)\. TikTok said Invalid value for field: event_time\./).waitFor();
    expect(await card('CompleteRegistration').locator('dl.figures').innerText()).toContain('TikTok recommends none for this event (it carries no amount).');
    await session.shots('01-diagnostics');
  });

  it('opens, from each figure, exactly the conversions it counts, with the filter in words', async () => {
    await session.open('diagnostics');
    await card('CompletePayment').getByRole('link', { name: 'contents (or content IDs) 1' }).click();
    await page.getByText('Only those sent without contents (and content IDs)').waitFor();
    expect(await listed(1)).toEqual(['F-2']);
    await session.shots('02-conversions-without-contents');
    // Apply keeps the linked filter; Remove drops it.
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Only those sent without contents (and content IDs)').waitFor();
    await page.getByRole('link', { name: 'Show them all, not only those sent without contents (and content IDs)' }).click();
    expect(await listed(3)).toEqual(['F-1', 'F-2', 'F-3']);

    await session.open('diagnostics');
    await card('CompletePayment').locator('dl.figures').getByRole('link', { name: '1 conversion', exact: true }).click();
    await page.getByText('Only those repeated by later events with the same order or event ID').waitFor();
    expect(await listed(1)).toEqual(['F-1']);

    await session.open('diagnostics');
    await card('CompletePayment').getByRole('link', { name: '50%' }).click();
    await page.getByText('Only those delivered without a TikTok click').waitFor();
    expect(await listed(1)).toEqual(['F-2']);

    await session.open('diagnostics');
    await card('CompletePayment').locator('.refusal-reasons').getByRole('link', { name: '1 conversion' }).click();
    await page.getByText('Only those refused with TikTok’s code 40002').waitFor();
    expect(await listed(1)).toEqual(['F-3']);

    await session.open('diagnostics');
    await card('CompletePayment').getByRole('link', { name: 'See an example: F-3' }).click();
    await page.getByRole('heading', { name: 'Why: Refused by TikTok' }).waitFor();
    expect(failures).toEqual([]);
  });
});
