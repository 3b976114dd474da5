import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { loadTrackingScript } from '../api/ingest/tracking-script';
import { reservePort, type ReservedPort } from '../devstack/ports';
import { FAKE_SHOP_DOMAIN, FAKE_SHOPIFY_API_KEY, FAKE_SHOPIFY_API_SECRET, startFakeShopifyAdmin, startFakeStorefront, type FakeShopifyAdmin, type FakeStorefront } from '../devstack/shopify-fake';
import { buildTrackingScript } from '../web/build';
import { closeAll } from './helpers/close-all';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { ttclid } from './helpers/messages';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';

jest.setTimeout(180_000);

let shopify: FakeShopifyAdmin;
let session: ConsoleInBrowser;
let page: Page;
let plain: FastifyInstance | undefined;
let plainPort: ReservedPort | undefined;
let storefront: FakeStorefront | undefined;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-shopify-connect-'));

const section = () => page.getByRole('region', { name: 'Shopify', exact: true });

beforeAll(async () => {
  shopify = await startFakeShopifyAdmin();
  const built = await buildTrackingScript(path.join(scratch, 'signalbox.js'));
  session = await startConsoleInBrowser({
    artifacts: 'console-shopify-connect',
    app: () => ({ shopifyApp: { apiKey: FAKE_SHOPIFY_API_KEY, secret: FAKE_SHOPIFY_API_SECRET, shopUrl: shopify.shopUrl }, trackingScript: loadTrackingScript(built.outfile) }),
  });
  ({ page } = session);
  await session.signInAsOwner();
});

afterAll(() =>
  closeAll(
    () => session?.close(),
    () => plain?.close(),
    () => plainPort?.release(),
    () => shopify?.close(),
    () => storefront?.close(),
    () => rmSync(scratch, { recursive: true, force: true }),
  ),
);

describe('Connect Shopify in the console', () => {
  it("asks for the shop's address and says what is wrong with another one", async () => {
    await session.open('sources');
    const address = section().getByLabel("Your shop's Shopify address");
    await address.waitFor();
    await session.shots('shopify-not-connected');
    await address.fill('fern-shop.com');
    await section().getByRole('button', { name: 'Connect Shopify' }).click();
    await section().getByText("shop must be your shop's myshopify.com address, e.g. fern-shop.myshopify.com (Shopify admin → Settings → Domains)").waitFor();
  });

  it('connects in one approval in Shopify and shows what Signalbox set up in the shop', async () => {
    await section().getByLabel("Your shop's Shopify address").fill(FAKE_SHOP_DOMAIN);
    await section().getByRole('button', { name: 'Connect Shopify' }).click();
    await page.getByRole('heading', { name: `Install Signalbox in ${FAKE_SHOP_DOMAIN}` }).waitFor();
    await page.screenshot({ path: path.join(session.artifacts, 'shopify-approval-page.png') });
    await page.getByRole('button', { name: 'Install app' }).click();
    await page.waitForURL(/\/sources\?shopify=connected$/);
    await page.getByText('Your Shopify shop is connected: orders now reach Signalbox and the tracking script runs on your storefront.').waitFor();
    await section().getByText(FAKE_SHOP_DOMAIN).waitFor();
    const checks = await section().locator('ul.checks li').allTextContents();
    expect(checks).toEqual([
      '✓ Shopify tells Signalbox about new orders',
      '✓ Shopify tells Signalbox about paid orders',
      '✓ Shopify tells Signalbox about started checkouts',
      '✓ Shopify tells Signalbox about cart changes',
      '✓ Shopify tells Signalbox about refunds',
      '✓ Shopify tells Signalbox about new customers',
      '✓ Shopify tells Signalbox about customer changes',
      '✓ Shopify tells Signalbox about removing the app',
      '✓ The tracking script runs on your storefront',
    ]);
    expect(shopify.subscriptions(FAKE_SHOP_DOMAIN)).toHaveLength(8);
    expect(shopify.scriptTags(FAKE_SHOP_DOMAIN)).toHaveLength(1);
    // The source it made asks for nothing to be pasted, and the tag's advice does not name a key nobody was shown.
    const card = page.locator('li.source-card').filter({ hasText: `${FAKE_SHOP_DOMAIN} (Connect Shopify)` });
    await card.getByText(`Connect Shopify set up this source's webhooks in ${FAKE_SHOP_DOMAIN}, signed with the Signalbox app's key: there is nothing to paste. See Shopify above.`).waitFor();
    expect(await card.getByLabel('Shopify’s key').count()).toBe(0);
    expect(await page.getByText(/Paste the browser key “Shopify storefront/).count()).toBe(0);
    await session.shots('shopify-connected');
    await section().screenshot({ path: path.join(session.artifacts, 'shopify-section-connected.png') });
    // Who connected it, in the change log's words.
    const [entry] = await session.pipeline.database.db('change_log').where({ workspace_id: session.workspaceId, action: 'shopify.connect' });
    expect(entry?.actor).toMatch(/^user:usr_/);
  });

  it("runs the tag on the shop's storefront through the script Signalbox installed: the click reaches the cart and the workspace", async () => {
    // The storefront renders the app's script tags as Shopify does: only their URL, which carries the browser key.
    storefront = await startFakeStorefront({ head: () => shopify.storefrontScripts(FAKE_SHOP_DOMAIN) });
    const origins = await fetch(`${session.ingestUrl}/admin/workspaces/${session.workspaceId}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ allowedOrigins: [storefront.origin] }),
    });
    expect(origins.status).toBe(200);
    const click = ttclid();
    await page.goto(`${storefront.origin}/products/aviator-sunglasses?ttclid=${click}`);
    const db = session.pipeline.database.db;
    for (let tries = 0; (await db('clicks').where({ workspace_id: session.workspaceId, ttclid: click }).first()) === undefined; tries += 1) {
      if (tries > 200) throw new Error('the storefront visit never reached the workspace');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cartWrite = storefront.requests.find((r) => r.method === 'POST' && r.path === '/cart/update.js');
    expect(JSON.parse(cartWrite?.body ?? '{}')).toEqual({ attributes: { sbx_aid: expect.any(String), ttclid: click } });
  });

  it('disconnects after a confirmation: the webhooks and the script leave the shop', async () => {
    await session.open('sources');
    await section().getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await session.toast('Shopify shop disconnected');
    await section().getByLabel("Your shop's Shopify address").waitFor();
    expect(shopify.subscriptions(FAKE_SHOP_DOMAIN)).toEqual([]);
    expect(shopify.scriptTags(FAKE_SHOP_DOMAIN)).toEqual([]);
  });

  it('on a server without the Shopify app, says so in words and points to the webhook source', async () => {
    // The same database and console, served without SHOPIFY_API_KEY / SHOPIFY_API_SECRET; the session cookie holds.
    plainPort = await reservePort();
    const url = `http://127.0.0.1:${plainPort.port}`;
    ({ app: plain } = buildTestApp(session.pipeline.database.db, { repos: session.pipeline.repos, consoleDirectory: session.consoleDirectory, publicUrl: url }));
    await plain.listen({ port: plainPort.port, host: '127.0.0.1' });
    await page.goto(`${url}/console/w/${session.workspaceId}/sources`);
    await section().getByText("Connecting a shop in one step is not set up on this Signalbox server yet: whoever runs it needs to add the Signalbox app's Shopify keys first.").waitFor();
    await section().getByText('Until then, connect your shop with webhooks instead: add a Shopify source under Webhook sources below and follow its steps.').waitFor();
    expect(await section().getByRole('button', { name: 'Connect Shopify' }).count()).toBe(0);
    await session.shots('shopify-not-configured');
  });
});
