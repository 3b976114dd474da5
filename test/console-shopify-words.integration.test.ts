import { LosslessNumber } from 'lossless-json';
import type { Page } from 'playwright-core';
import { shopifyDelivery, shopifyFixture, type ShopifyDeliveryRequest } from '../devstack/shopify-fake';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { ttclid } from './helpers/messages';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * Issue 46's words for a shop owner, in Chromium: the rule a Shopify shop needs, named on its card and on the Rules
 * page; warnings before a rule for a refund or a product update; one order's orders/create and orders/paid as normal
 * traffic; refusals that name their source and say what to do, the card showing the last; an order found and shown by
 * its number, with the page its click came from; no Temporal link; a mapping path that finds nothing flagged.
 * Screenshots under `test-artifacts/console-shopify-words/`.
 */
const SHOP_KEY = 'a11ce5eedf00da11ce5eedf00da11ce5eedf00da11ce5eedf00da11ce5eedf0';

jest.setTimeout(180_000);

let session: ConsoleInBrowser;
let page: Page;
let webhookPath = '';
const orderId = 7_000_000_000_000 + (Date.now() % 1_000_000_000);

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${session.ingestUrl}/admin/workspaces/${session.workspaceId}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};

async function deliver(delivery: ShopifyDeliveryRequest): Promise<number> {
  const answer = await fetch(`${session.ingestUrl}${webhookPath}`, { method: 'POST', headers: delivery.headers, body: delivery.body });
  return answer.status;
}

/** The fixture's order #9074, placed now by a shopper whose visit landed on a page opened from a TikTok ad. */
function order(): Record<string, unknown> {
  const placed = new Date().toISOString();
  return Object.assign(shopifyFixture('orders/create'), {
    id: new LosslessNumber(String(orderId)),
    name: '#9074',
    created_at: placed,
    processed_at: placed,
    updated_at: placed,
    note_attributes: [],
    landing_site: `/products/fern?ttclid=${ttclid()}`,
  });
}

beforeAll(async () => {
  session = await startConsoleInBrowser({ artifacts: 'console-shopify-words' });
  ({ page } = session);
  await admin('PUT', '/tiktok', { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  const created = await admin('POST', '/sources', { type: 'shopify', name: 'Fern shop', signingSecret: SHOP_KEY });
  webhookPath = new URL(created.webhookUrl as string).pathname;
  await session.signInAsOwner();
});
afterAll(() => session?.close());

const card = () => page.locator('li.source-card').filter({ hasText: 'Fern shop' });

describe("a Shopify shop's owner in Chromium", () => {
  it('is told on the source card, then on the Rules page, which rule the shop needs, and adds it there', async () => {
    await session.open('sources#webhooks');
    await card().getByText('none yet, so nothing of it reaches TikTok.').waitFor();
    await card().scrollIntoViewIfNeeded();
    await session.shots('01-source-needs-its-rule');
    await card().getByRole('link', { name: 'Add the rule' }).click();
    await page.getByRole('heading', { name: 'Rules your sources need' }).waitFor();
    await page.getByText('Fern shop sends its events as').waitFor();
    expect(await page.getByText('the event name your code sends', { exact: false }).count()).toBe(0);
    await session.shots('02-rules-page-needed-rule');
    await page.getByRole('button', { name: 'Add the rule for Order Completed' }).click();
    expect(await page.getByLabel('Your event', { exact: true }).inputValue()).toBe('Order Completed');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await session.toast('Rule saved');
    await page.getByRole('heading', { name: 'Rules your sources need' }).waitFor({ state: 'detached' });
    await session.open('sources#webhooks');
    await card().getByText('in place.').waitFor();
  });

  it('sees one order paid as the same order, and a refund and a product update warned against', async () => {
    const placed = order();
    expect(await deliver(shopifyDelivery('orders/create', placed, SHOP_KEY))).toBe(200);
    expect(await deliver(shopifyDelivery('orders/paid', placed, SHOP_KEY))).toBe(200);
    const refund = Object.assign(shopifyFixture('refunds/create'), { order_id: new LosslessNumber(String(orderId)), created_at: new Date().toISOString(), processed_at: new Date().toISOString() });
    expect(await deliver(shopifyDelivery('refunds/create', refund, SHOP_KEY))).toBe(200);
    expect(await deliver(shopifyDelivery('products/update', { id: new LosslessNumber('632910392'), title: 'Fern seeds', updated_at: new Date().toISOString() }, SHOP_KEY))).toBe(200);
    await session.settledConversion(String(orderId));

    await session.open('debugger');
    await page.getByText('The same order again: Shopify sends an order when it is placed and again when it is paid.').waitFor();
    const refunded = page.locator('.stream-item').filter({ hasText: 'Order Refunded' });
    await refunded.getByText('This is a refund: a rule would send every refund to TikTok as a conversion').waitFor();
    await refunded.getByRole('link', { name: 'Create a rule for it anyway' }).waitFor();
    await page.locator('.stream-item').filter({ hasText: 'Shopify products/update' }).getByText('not something a shopper did').waitFor();
    expect(await page.getByText('Repeated order ID').count()).toBe(0);
    await session.shots('03-debugger-same-order-and-warnings');

    await session.open('rules');
    const unmapped = page.locator('section[aria-labelledby="unmapped"]');
    await unmapped.getByText('This is a refund').waitFor();
    await unmapped.locator('li').filter({ hasText: 'Order Refunded' }).getByRole('button', { name: 'Add a rule' }).click();
    await page.getByRole('note').getByText('This is a refund').waitFor();
    await session.shots('04-rule-form-refund-warning');
  });

  it('finds the order by its number, shows it, says where its click came from, and offers no Temporal link', async () => {
    await session.open('conversions?q=9074');
    const row = page.locator('tr').filter({ hasText: '#9074' });
    await row.getByText(String(orderId)).waitFor();
    await session.shots('05-conversions-by-order-number');
    await session.open(`conversions?q=${encodeURIComponent('#9074')}`);
    await page.locator('tr').filter({ hasText: '#9074' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Order #9074: CompletePayment/ }).waitFor();
    await page.getByText('The shopper came from the TikTok ad: the page their visit began on, which Shopify keeps with the order, carried the ad’s click.').waitFor();
    expect(await page.getByText('Temporal').count()).toBe(0);
    expect(await page.getByText('Repeated order ID').count()).toBe(0);
    await session.shots('06-conversion-order-number');
  });

  it('names the source of refused deliveries with what to do, and the card shows the last of three', async () => {
    const body = JSON.stringify(order());
    const headers = { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create' };
    for (const hmac of [undefined, 'not base64 at all', Buffer.alloc(32).toString('base64')]) {
      const answer = await fetch(`${session.ingestUrl}${webhookPath}`, { method: 'POST', headers: hmac === undefined ? headers : { ...headers, 'x-shopify-hmac-sha256': hmac }, body });
      expect(answer.status).toBe(401);
    }
    await session.open('debugger');
    const refused = page.locator('.stream-item.refused');
    await refused.first().getByText('Refused: a delivery to Fern shop that was not signed with its key').waitFor();
    await refused.first().getByText('From Fern shop (Shopify shop)').waitFor();
    expect(await page.getByText('the code that sends it').count()).toBe(0);
    expect(await page.getByText('The explanation says what the request lacked').count()).toBe(0);
    await session.shots('07-debugger-refusals-name-their-source');

    // The third refusal's words: written with the newest of its second, at most a second after it. A second goto to
    // the same URL with a fragment does not load the page again, so each later look reloads it.
    const lastRefusal = () => card().locator('dd.form-error').textContent();
    await session.open('sources#webhooks');
    for (let attempt = 0; !(await lastRefusal())?.includes('X-Shopify-Hmac-Sha256 does not match'); attempt += 1) {
      if (attempt > 10) throw new Error(`the card never showed the last refusal: ${await lastRefusal()}`);
      await page.waitForTimeout(500);
      await page.reload();
    }
    await card().scrollIntoViewIfNeeded();
    await session.shots('08-source-last-refusal');
  });

  it('flags a mapping path that finds nothing in the sample, in words', async () => {
    await session.open('sources#webhooks');
    const form = page.getByRole('form', { name: 'Add a source' });
    await form.getByLabel('Source kind', { exact: true }).selectOption('webhook');
    await form.getByLabel('Event name', { exact: true }).fill('"Order Completed"');
    await form.getByLabel('Email', { exact: true }).fill('customer_details.mail');
    await form.getByLabel('Sample delivery (paste one body)', { exact: true }).fill('{"id": "evt_1", "customer_details": {"email": "ada@example.com"}}');
    const preview = form.getByRole('region', { name: 'Preview' });
    await preview.getByRole('alert').getByText('Email: nothing at').waitFor();
    expect(await preview.getByRole('alert').locator('code').textContent()).toBe('customer_details.mail');
    await preview.scrollIntoViewIfNeeded();
    await session.shots('09-mapping-path-finds-nothing');
    expect(session.notFound).toEqual([]);
  });
});
