import type { Page } from 'playwright-core';
import { sign } from '../devstack/shopify-fake';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import type { TestPipeline } from './helpers/pipeline';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * Issue 29 in Chromium: Sources > Shopify and webhooks. An owner adds a Shopify source with the shop's key, and a
 * generic webhook source whose mapping is made in the console against a pasted sample; a delivery signed with the
 * secret the console showed once arrives as the event the mapping says. A viewer sees the sources, not the controls.
 */
let session: ConsoleInBrowser;
let pipeline: TestPipeline;
let page: Page;
let workspaceId: string;
let ingestUrl: string;

const VIEWER = { email: 'viewer@fern.example', password: 'another long passphrase' };
const SHOP_KEY = 'd1e5c0ffee0ddba11d1e5c0ffee0ddba11d1e5c0ffee0ddba11d1e5c0ffee0d';

/** A Stripe checkout.session.completed event, trimmed to the fields a mapping reads (Stripe's Event and Checkout Session objects). */
const stripeEvent = (id: string, at: Date) =>
  JSON.stringify(
    {
      id,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(at.getTime() / 1000),
      data: {
        object: {
          id: 'cs_test_a1B2c3',
          object: 'checkout.session',
          amount_total: 5990,
          currency: 'eur',
          client_reference_id: 'user-42',
          customer_details: { email: 'ada@example.com', phone: '+33612345678' },
          metadata: { order_id: 'A-1001' },
        },
      },
    },
    null,
    2,
  );

beforeAll(async () => {
  session = await startConsoleInBrowser({ artifacts: 'console-sources' });
  ({ pipeline, page, workspaceId, ingestUrl } = session);
  await session.signInAsOwner();
});
afterAll(() => session?.close());

const form = () => page.getByRole('form', { name: 'Add a source' });

describe('Sources > Shopify and webhooks in Chromium', () => {
  it('adds a Shopify source with the shop’s key: its webhook URL (from PUBLIC_URL) and what to do in Shopify', async () => {
    await session.open('sources#webhooks');
    await page.getByText('No source yet.').waitFor();
    await form().getByLabel('Name', { exact: true }).fill('Fern shop');
    await form().getByLabel('Shopify’s key (optional)', { exact: true }).fill(SHOP_KEY);
    await form().getByRole('button', { name: 'Add the source' }).click();
    await session.toast('Source added');
    const card = page.locator('li.source-card').filter({ hasText: 'Fern shop' });
    await card.getByText(`${ingestUrl}/v1/webhooks/src_`).waitFor();
    await page.getByText('Signalbox checks every delivery with the key you gave').waitFor();
    // The card says Shopify's key was saved (a reload no longer leaves the owner guessing).
    await card.getByText(/^saved /).waitFor();
    await session.shots('01-shopify-source');
  });

  it('makes a webhook mapping against a pasted sample, with a live preview of the event, and saves it', async () => {
    await form().getByLabel('Source kind', { exact: true }).selectOption('webhook');
    await form().getByLabel('Name', { exact: true }).fill('Stripe payments');
    await form().getByLabel('Signature header', { exact: true }).fill('Stripe-Signature');
    await form().getByLabel('Event name', { exact: true }).fill('"Order Completed"');
    await form().getByLabel('Message ID', { exact: true }).fill('id');
    await form().getByLabel('User ID', { exact: true }).fill('data.object.client_reference_id');
    await form().getByLabel('Email', { exact: true }).fill('data.object.customer_details.email');
    await form().getByLabel('Phone', { exact: true }).fill('data.object.customer_details.phone');
    await form().getByLabel('Value', { exact: true }).fill('data.object.amount_total');
    await form().getByLabel('Currency', { exact: true }).fill('data.object.currency');
    await form().getByLabel('Order ID', { exact: true }).fill('data.object.metadata.order');
    await form().getByLabel('Time', { exact: true }).fill('created');
    await form().getByLabel('Sample delivery (paste one body)', { exact: true }).fill(stripeEvent('evt_sample', new Date()));
    const preview = form().getByRole('region', { name: 'Preview' });
    await preview.getByText('"event": "Order Completed"').waitFor();
    // A path that finds nothing is left out, and the preview says which and where it looked; the value is still in cents.
    expect(await preview.textContent()).not.toContain('order_id');
    expect(await preview.getByRole('alert').textContent()).toBe('Left out, because the sample has nothing there:Order ID: nothing at data.object.metadata.order. Check its spelling against the sample.');
    expect(await preview.textContent()).toContain('"total": 5990');
    await form().getByLabel('Order ID', { exact: true }).fill('data.object.metadata.order_id');
    await form().getByText('The value is in cents').click();
    await preview.getByText('"total": 59.9').waitFor();
    await preview.getByText('"order_id": "A-1001"').waitFor();
    expect(await preview.getByRole('alert').count()).toBe(0);
    await session.shots('02-mapping-preview');

    // A mapping that cannot work: the preview says why, and so does the server when it is saved.
    await form().getByLabel('Event name', { exact: true }).fill('kind');
    await preview.getByText('mapping.event: the body has no event name at kind').waitFor();
    await form().getByLabel('Event name', { exact: true }).fill('a..b');
    await form().getByRole('button', { name: 'Add the source' }).click();
    // Beside the field, from the server (the preview says the same).
    await form().locator('.field-error', { hasText: 'is not a path like data.object.email or items[0].price (stopped at character 3)' }).waitFor();
    await session.shots('03-mapping-refused');
    await form().getByLabel('Event name', { exact: true }).fill('"Order Completed"');
    await form().getByRole('button', { name: 'Add the source' }).click();
    await session.toast('Source added');
  });

  it('takes a delivery signed with the secret it showed once, as the event the mapping says', async () => {
    const notice = page.getByRole('status').filter({ hasText: 'Stripe payments' });
    const secret = (await notice.locator('code.secret').textContent()) as string;
    expect(secret).toMatch(/^sbxwh_[0-9a-f]{64}$/);
    const card = page.locator('li.source-card').filter({ hasText: 'Stripe payments' });
    const url = (await card.locator('dd code').first().textContent()) as string;
    const now = new Date();
    const body = stripeEvent('evt_1PmS7a2eZvKYlo2C', now);
    const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': sign.stripe(body, secret, Math.floor(now.getTime() / 1000)) }, body });
    expect([answer.status, await answer.json()]).toEqual([200, { success: true }]);
    const [event] = await pipeline.database.db('events').where({ workspace_id: workspaceId, message_id: 'evt_1PmS7a2eZvKYlo2C' });
    expect(event).toMatchObject({ type: 'track', event_name: 'Order Completed', user_id: 'user-42' });
    expect(event.occurred_at.toISOString()).toBe(new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString());
    expect(event.message).toMatchObject({
      properties: { order_id: 'A-1001', total: 59.9, currency: 'eur' },
      context: { traits: { email: 'ada@example.com', phone: '+33612345678' }, source: { type: 'webhook' } },
    });
    // Signed with another secret: refused, and the card says so.
    const forged = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': sign.stripe(body, 'whsec_guess', Math.floor(now.getTime() / 1000)) }, body });
    expect(forged.status).toBe(401);
    await page.reload();
    await card.getByText('401 Stripe-Signature does not match the body signed with this source').waitFor();
    // Last delivery: no longer "none yet" (the rule row's "none yet, so nothing of it reaches TikTok" is another text).
    await card.getByText('none yet', { exact: true }).waitFor({ state: 'detached' });
    await session.shots('04-sources-with-deliveries');
  });

  it("lets the owner choose what the tag does with TikTok's pixel, each choice with its advice, and turn Limited Data Use on", async () => {
    await session.open('sources#browser-pixel');
    const pixelForm = page.getByRole('form', { name: 'TikTok pixel in the browser' });
    await pixelForm.getByText('Choose this if TikTok’s Shopify app or your theme already installs the pixel').waitFor();
    expect(await pixelForm.getByLabel('Off', { exact: true }).isChecked()).toBe(true);
    await pixelForm.getByLabel('Use the pixel already on my pages', { exact: true }).check();
    await pixelForm.getByRole('button', { name: 'Save the pixel choice' }).click();
    await session.toast('Pixel choice saved: your pages pick it up within 5 minutes');
    await page.locator('label.switch').filter({ hasText: 'Limited Data Use: off' }).click();
    await session.toast('Limited Data Use is on');
    const saved = await fetch(`${ingestUrl}/admin/workspaces/${workspaceId}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(await saved.json()).toMatchObject({ browserPixel: 'page', limitedDataUse: true });
    await page.locator('#browser-pixel').scrollIntoViewIfNeeded();
    await session.shots('05-browser-pixel');
  });

  it('shows a viewer the sources and their mapping, read-only, with the reason', async () => {
    const added = await fetch(`${ingestUrl}/admin/workspaces/${workspaceId}/members`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: VIEWER.email, role: 'viewer', password: VIEWER.password }),
    });
    expect(added.status).toBe(201);
    await session.browser.clearCookies();
    await page.goto(`${ingestUrl}/console/w/${workspaceId}/sources`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await page.getByLabel('Email').fill(VIEWER.email);
    await page.getByLabel('Password').fill(VIEWER.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(`${ingestUrl}/console/w/${workspaceId}/sources`);
    await page.getByText('Your role (viewer) cannot add sources or change them: it needs an editor or owner.').waitFor();
    const card = page.locator('li.source-card').filter({ hasText: 'Stripe payments' });
    expect(await card.getByLabel('Event name', { exact: true }).inputValue()).toBe('"Order Completed"');
    expect(await card.getByLabel('Event name', { exact: true }).isEditable()).toBe(false);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByText('Your role (viewer) cannot change how the tag works with TikTok’s pixel: it needs an editor or owner.').waitFor();
    expect(await page.getByLabel('Use the pixel already on my pages', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('Use the pixel already on my pages', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Limited Data Use: on' }).isDisabled()).toBe(true);
    await page.locator('#webhooks').scrollIntoViewIfNeeded();
    await session.shots('06-viewer-sources');
    expect(session.notFound).toEqual([]);
  });
});
