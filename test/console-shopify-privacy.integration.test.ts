import { LosslessNumber } from 'lossless-json';
import type { Page } from 'playwright-core';
import { postShopifyDelivery, shopifyDelivery } from '../devstack/shopify-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * Issue 46 in Chromium: Shopify's privacy requests, signed as Shopify signs them and posted over HTTP to a Shopify
 * source, as the owner finds them in Settings: a customer's request for their data says whom to answer and opens
 * their page on People; a customer's erasure and a shop's removal say what went; the erasure is in the erasure log,
 * by Shopify.
 */
let session: ConsoleInBrowser;
let page: Page;

const SHOP_KEY = 'b0a710ad5c0ffee0ddba11b0a710ad5c0ffee0ddba11b0a710ad5c0ffee0ddba';
const SHOP = 'fern-shop.myshopify.com';
const ASKING = { id: '6000000000101', email: 'ada@example.com', phone: '+1 201 555 0123' };
const ERASED = { id: '6000000000102', email: 'bob@example.com', phone: '+1 201 555 0124' };
const GONE = { id: '6000000000103', email: 'cy@example.com', phone: '+1 201 555 0125' };
const OLD_SHOP = 'old-fern.myshopify.com';

beforeAll(async () => {
  session = await startConsoleInBrowser({ artifacts: 'console-shopify-privacy' });
  ({ page } = session);
  await session.signInAsOwner();
});
afterAll(() => session?.close());

/** A Shopify source made through the settings API with the shop's key: its webhook URL. */
async function shopifySource(name: string): Promise<string> {
  const created = await fetch(`${session.ingestUrl}/admin/workspaces/${session.workspaceId}/sources`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'shopify', name, signingSecret: SHOP_KEY }),
  });
  return ((await created.json()) as { webhookUrl: string }).webhookUrl;
}

async function deliver(url: string, topic: string, body: unknown) {
  const answer = await postShopifyDelivery(url, shopifyDelivery(topic, body, SHOP_KEY));
  expect(answer).toMatchObject({ status: 200, body: { success: true } });
}

const customerOf = (person: typeof ASKING) => ({ id: new LosslessNumber(person.id), email: person.email, phone: person.phone });
const customerCreated = (person: typeof ASKING) => ({ id: new LosslessNumber(person.id), email: person.email, updated_at: new Date().toISOString() });

describe('Settings > Privacy requests from Shopify in Chromium', () => {
  it('lists each request in words: whom to answer and how, what an erasure and a shop’s removal took away', async () => {
    const fern = await shopifySource('Fern shop');
    const old = await shopifySource('Old shop');
    for (const person of [ASKING, ERASED]) await deliver(fern, 'customers/create', customerCreated(person));
    await deliver(fern, 'customers/data_request', { shop_id: 954889, shop_domain: SHOP, orders_requested: [new LosslessNumber('5100000000301')], customer: customerOf(ASKING), data_request: { id: 9999 } });
    await deliver(fern, 'customers/redact', { shop_id: 954889, shop_domain: SHOP, customer: customerOf(ERASED), orders_to_redact: [] });
    await deliver(old, 'customers/create', customerCreated(GONE));
    await deliver(old, 'shop/redact', { shop_id: 954890, shop_domain: OLD_SHOP });

    await session.open('settings');
    const section = page.getByRole('region', { name: 'Privacy requests from Shopify' });
    await section.getByText('A customer asked for their data').waitFor();
    await section.getByText(`Send this customer (${ASKING.email}, ${ASKING.phone}, Shopify customer ${ASKING.id}) what Signalbox holds about them, within a month`).waitFor();
    await section.getByText('Shopify’s request names their orders by ID: 5100000000301.').waitFor();
    await section.getByText('The source itself stays, with its key: delete it on Sources').waitFor();
    await section.getByText('A customer asked to be erased: done').waitFor();
    await section.getByText("The shop's data was removed").waitFor();
    expect(await section.getByText(`from the Shopify source “Fern shop” (${SHOP})`).count()).toBe(2);
    expect(await section.getByText(`from the Shopify source “Old shop” (${OLD_SHOP})`).count()).toBe(1);
    // Each removal says what went: the erased customer's event; what the old shop's source stored.
    for (const title of ['A customer asked to be erased: done', "The shop's data was removed"]) {
      const item = section.locator('li', { hasText: title });
      await item.getByText('What was removed').click();
      expect(await item.locator('dl.facts').innerText()).toContain('Events deleted\n1');
    }
    // The erasure is in the erasure log like any other, by Shopify.
    await page.getByRole('region', { name: 'Erase a person' }).getByText(`by Shopify, for the shop ${SHOP}`).waitFor();
    const text = (await section.textContent()) ?? '';
    expect(text).not.toContain(ERASED.email);
    expect(text).not.toMatch(/customers\/|shop\/redact|data_request/);
    await section.scrollIntoViewIfNeeded();
    await session.shots('01-privacy-requests');

    await section.getByRole('link', { name: 'their page on People' }).click();
    await page.waitForURL(`${session.ingestUrl}/console/w/${session.workspaceId}/people?email=${encodeURIComponent(ASKING.email)}`);
    // Their page shows what Signalbox holds about them, to send.
    await page.getByRole('heading', { name: 'Linked identifiers' }).waitFor();
    await page.locator('main').getByText(ASKING.id).first().waitFor();
    await session.shots('02-their-page-on-people');
    expect(session.notFound).toEqual([]);
  });
});
