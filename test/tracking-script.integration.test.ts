import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Signalbox from '@signalbox/api';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Workspace } from '../db/repositories/workspaces';
import type { ConversionRow, EventRow } from '../db/types';
import { sha256Hex } from '../domain/hashing';
import { ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { chromiumLaunch } from './helpers/chromium';
import { startTagIngest } from './helpers/tag-ingest';

// Starting Temporal's worker and Chromium takes a few seconds on a busy two-core machine.
jest.setTimeout(60_000);

/** The page's globals this test touches (the test itself is compiled without DOM types). */
interface PageGlobals {
  signalbox: {
    getAnonymousId(): string;
    track(event: string): void;
    identify(userId: string, traits?: Record<string, unknown>): void;
    reset(): void;
    ready(callback: () => void): void;
  };
  localStorage: { getItem(key: string): string | null; key(index: number): string | null; length: number; clear(): void };
  /** Names of the cookies the page's scripts wrote through document.cookie (see SCRIPT_COOKIE_SPY). */
  scriptCookies: string[];
}

/** Where the screenshots of the scenarios go, to look at after a run. */
const SCREENSHOTS = path.join(os.tmpdir(), 'signalbox-tracking-script-screenshots');

let pipeline: TestPipeline;
let ingest: FastifyInstance;
let ingestUrl: string;
let site: Server;
let siteOrigin: string;
let browser: BrowserContext;
let page: Page;
/** A browser for scenarios that each start from an empty profile (a new device). */
let fresh: Browser;
let workspace: Workspace;
let consentWorkspace: Workspace;
let backend: Signalbox;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-browser-'));
let starts: Promise<unknown>[];

/** One kind of page of the shop: the tag in its head (the one-tag install web/README.md shows) and its body. */
interface SitePage {
  tag: string;
  body: string;
}

/** The shop: each path prefix (`/consent/…`, `/spa/…`) is served by its own kind of page, the rest by `/`. */
function startSite(pages: () => Record<string, SitePage>): Promise<Server> {
  const server = createServer((request, response) => {
    const all = pages();
    const prefix = Object.keys(all).find((key) => key !== '/' && (request.url ?? '').startsWith(key)) ?? '/';
    const { tag, body } = all[prefix] as SitePage;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Ferns</title>${tag}</head><body>${body}</body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Records which cookies the page's own scripts write (Safari caps those to 7 days; server-set ones it does not). */
const SCRIPT_COOKIE_SPY = `(() => {
  const native = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  window.scriptCookies = [];
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => native.get.call(document),
    set: (line) => { window.scriptCookies.push(line.split('=')[0].trim()); native.set.call(document, line); },
  });
})();`;

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app: ingest, url: ingestUrl, starts } = await startTagIngest(pipeline, scratch));

  let browserKey = '';
  let consentKey = '';
  const tag = (key: string, attributes = '') => `<script async src="${ingestUrl}/js/v1/signalbox.js" data-key="${key}"${attributes}></script>`;
  site = await startSite(() => ({
    '/': { tag: tag(browserKey), body: '<h1>Ferns</h1><button id="sign-out" onclick="signalbox.reset()">Sign out</button>' },
    '/consent/': {
      tag: tag(consentKey),
      body: '<h1>Ferns</h1><div id="banner">We would like to measure our ads. <button id="accept" onclick="signalbox.consent.grant()">Accept</button></div>',
    },
    '/spa/': {
      tag: tag(browserKey, ' data-auto-page="history"'),
      body: `<h1 id="title">Home</h1><a id="to-product" href="/spa/product/42">Boston fern</a>
        <script>document.getElementById('to-product').addEventListener('click', (event) => {
          event.preventDefault(); history.pushState({}, '', event.target.href); document.getElementById('title').textContent = 'Boston fern';
        });</script>`,
    },
  }));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  workspace = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  await pipeline.repos.workspaces.updateSettings(workspace.id, { allowedOrigins: [siteOrigin] });
  browserKey = (await pipeline.repos.apiKeys.create(workspace.id, 'site', 'browser')).key;
  backend = new Signalbox({ apiKey: (await pipeline.repos.apiKeys.create(workspace.id, 'backend')).key, host: ingestUrl });
  consentWorkspace = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { allowedOrigins: [siteOrigin], consentRequired: true } });
  consentKey = (await pipeline.repos.apiKeys.create(consentWorkspace.id, 'site', 'browser')).key;

  browser = await chromium.launchPersistentContext(path.join(scratch, 'profile'), chromiumLaunch());
  page = browser.pages()[0] ?? (await browser.newPage());
  fresh = await chromium.launch(chromiumLaunch());
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await fresh?.close();
  await backend?.close();
  await ingest?.close();
  await new Promise((resolve) => site?.close(resolve));
  await pipeline?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The next batch the page posts to the ingest API, once answered. */
function nextBatch(on: Page) {
  return on.waitForResponse((response) => response.url() === `${ingestUrl}/v1/batch` && response.request().method() === 'POST');
}

/** Opens a URL of the shop and waits until the script's page view was accepted by the ingest API. */
async function visit(url: string, referer?: string, on: Page = page) {
  const accepted = nextBatch(on);
  await on.goto(url, { referer });
  const answer = await accepted;
  expect(answer.status()).toBe(200);
  return answer;
}

const anonymousIdOn = (on: Page) => on.evaluate(() => (globalThis as unknown as PageGlobals).signalbox.getAnonymousId());

async function pageViews(anonymousId: string): Promise<EventRow[]> {
  return pipeline.database.db('events').where({ workspace_id: workspace.id, anonymous_id: anonymousId, type: 'page' }).orderBy('id');
}

/** The backend's purchase for the visitor, through @signalbox/api; resolves with the conversion once its workflow ends. */
async function purchase(anonymousId: string, orderId: string, userId = 'fern-lover', email?: string): Promise<ConversionRow> {
  await backend.track({ event: 'purchase', userId, anonymousId, properties: { order_id: orderId, total: 59, currency: 'EUR', ...(email ? { email } : {}) } });
  await backend.flush();
  await Promise.all(starts);
  const conversion = (await pipeline.database.db('conversions').where({ workspace_id: workspace.id, event_id: orderId }).first()) as ConversionRow;
  return pipeline.settled(conversion);
}

async function storedTrack(anonymousId: string, event: string): Promise<EventRow | undefined> {
  return pipeline.database.db('events').where({ workspace_id: workspace.id, anonymous_id: anonymousId, type: 'track', event_name: event }).first();
}

/** Waits for something the browser does in the background; gives up after 10 s. */
async function eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen within 10 s`);
}

const track = (event: string) => page.evaluate((name) => (globalThis as unknown as PageGlobals).signalbox.track(name), event);

async function sentToTikTok(orderId: string) {
  const { events } = await pipeline.fake.receivedEvents();
  return events.filter((event) => event.eventId === orderId).map((event) => event.payload.user);
}

describe('the tracking script in Chromium', () => {
  const click = ttclid();
  const ttp = randomUUID();
  let anonymousId: string;

  it('records the landing visit with ttclid and _ttp, and a backend purchase for the same anonymous ID reaches TikTok with both', async () => {
    await browser.addCookies([{ name: '_ttp', value: ttp, url: siteOrigin }]);
    await visit(`${siteOrigin}/ferns?utm_source=tiktok&ttclid=${click}`, 'https://www.tiktok.com/');

    anonymousId = await page.evaluate(() => (globalThis as unknown as PageGlobals).signalbox.getAnonymousId());
    // The first-party cookie is how the shop's backend learns the same ID from its own requests.
    const cookie = (await browser.cookies(siteOrigin)).find((c) => c.name === 'sbx_aid');
    expect(cookie?.value).toBe(anonymousId);

    const [landing] = await pageViews(anonymousId);
    expect(landing?.message).toMatchObject({
      context: { ttclid: click, ttp, page: { url: `${siteOrigin}/ferns?utm_source=tiktok&ttclid=${click}`, referrer: 'https://www.tiktok.com/' }, library: { name: 'signalbox.js' } },
      properties: { path: '/ferns', title: 'Ferns' },
    });
    expect(await pipeline.database.db('visitors').where({ workspace_id: workspace.id, anonymous_id: anonymousId }).first()).toMatchObject({ ttclid: click, ttp });

    expect(await purchase(anonymousId, 'order-first-visit')).toMatchObject({ status: 'delivered', ttclid: click, ttp, click_anonymous_id: anonymousId });
    expect(await sentToTikTok('order-first-visit')).toEqual([expect.objectContaining({ ttclid: click, ttp })]);
  });

  it('keeps the click for a second visit without ttclid, and the purchase after it is attributed to that click', async () => {
    await visit(`${siteOrigin}/ferns/boston-fern`);

    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).signalbox.getAnonymousId())).toBe(anonymousId);
    const views = await pageViews(anonymousId);
    expect(views).toHaveLength(2);
    expect(views[1]?.message).toMatchObject({ context: { ttclid: click, ttp, page: { url: `${siteOrigin}/ferns/boston-fern` } } });

    expect(await purchase(anonymousId, 'order-second-visit')).toMatchObject({ status: 'delivered', ttclid: click, ttp });
    expect(await sentToTikTok('order-second-visit')).toEqual([expect.objectContaining({ ttclid: click, ttp })]);
  });

  it('queues events while the browser is offline and sends them once it is back online', async () => {
    await browser.setOffline(true);
    await track('wishlist_add');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.getItem('sbx_queue'))).toContain('"event":"wishlist_add"');
    expect(await storedTrack(anonymousId, 'wishlist_add')).toBeUndefined();
    await browser.setOffline(false);
    await eventually('the offline event reaching Signalbox', () => storedTrack(anonymousId, 'wishlist_add'));
  });

  it('delivers an event tracked just before the page navigates away', async () => {
    await track('outbound_click');
    await page.goto(`${siteOrigin}/thanks`);
    const stored = await eventually('the event of the page left behind reaching Signalbox', () => storedTrack(anonymousId, 'outbound_click'));
    expect(stored.message).toMatchObject({ context: { ttclid: click, page: { url: `${siteOrigin}/ferns/boston-fern` } } });
  });
});

describe('the tracking script on a shared device, with consent, in a single-page app and in the same-site mode', () => {
  let context: BrowserContext;
  let tab: Page;
  beforeEach(async () => {
    context = await fresh.newContext();
    await context.addInitScript(SCRIPT_COOKIE_SPY);
    tab = await context.newPage();
  });
  afterEach(() => context.close());

  it("after sign-out with reset(), the next person's purchase carries none of the first person's identifiers", async () => {
    const firstClick = ttclid();
    await visit(`${siteOrigin}/ferns?ttclid=${firstClick}`, undefined, tab);
    const first = await anonymousIdOn(tab);
    await tab.evaluate(() => (globalThis as unknown as PageGlobals).signalbox.identify('first-person', { email: 'first@example.com' }));
    expect(await purchase(first, 'order-first-person', 'first-person', 'first@example.com')).toMatchObject({ status: 'delivered', ttclid: firstClick });

    await tab.click('#sign-out');
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'shared-device-signed-out.png') });
    const secondClick = ttclid();
    await visit(`${siteOrigin}/ferns?ttclid=${secondClick}`, undefined, tab);
    const second = await anonymousIdOn(tab);
    expect(second).not.toBe(first);
    expect((await pageViews(second))[0]?.message).not.toHaveProperty('userId');

    expect(await purchase(second, 'order-second-person', 'second-person')).toMatchObject({ status: 'delivered', ttclid: secondClick });
    const [sent] = await sentToTikTok('order-second-person');
    expect(sent).toMatchObject({ ttclid: secondClick, external_id: sha256Hex('second-person') });
    const everything = JSON.stringify(sent);
    for (const firstPersons of [firstClick, sha256Hex('first@example.com'), sha256Hex('first-person'), first]) expect(everything).not.toContain(firstPersons);
  });

  it('stores and sends nothing while the workspace waits for consent, and everything once the visitor accepts', async () => {
    const click = ttclid();
    await tab.goto(`${siteOrigin}/consent/landing?ttclid=${click}`);
    await tab.evaluate(() => new Promise<void>((resolve) => (globalThis as unknown as PageGlobals).signalbox.ready(resolve)));
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'consent-held.png') });
    const storedNames = async () => ({
      cookies: (await context.cookies()).map((c) => c.name),
      storage: await tab.evaluate(() => {
        const storage = (globalThis as unknown as PageGlobals).localStorage;
        return Array.from({ length: storage.length }, (_, i) => storage.key(i));
      }),
    });
    expect(await storedNames()).toEqual({ cookies: [], storage: [] });
    expect(await anonymousIdOn(tab)).toBe('');
    expect(await pipeline.database.db('events').where({ workspace_id: consentWorkspace.id })).toEqual([]);

    const accepted = nextBatch(tab);
    await tab.click('#accept');
    expect((await accepted).status()).toBe(200);
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'consent-granted.png') });
    const anonymousId = await anonymousIdOn(tab);
    expect(anonymousId).not.toBe('');
    const [landing] = await pipeline.database.db('events').where({ workspace_id: consentWorkspace.id, anonymous_id: anonymousId, type: 'page' });
    expect(landing?.message).toMatchObject({ context: { ttclid: click, page: { url: `${siteOrigin}/consent/landing?ttclid=${click}` } } });
    expect((await storedNames()).cookies).toEqual(expect.arrayContaining(['sbx_consent', 'sbx_aid']));
  });

  it('records a page view for a single-page navigation, with the page left as its referrer', async () => {
    await visit(`${siteOrigin}/spa/home`, undefined, tab);
    const navigated = nextBatch(tab);
    await tab.click('#to-product');
    expect((await navigated).status()).toBe(200);
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'single-page-navigation.png') });
    const views = await pageViews(await anonymousIdOn(tab));
    expect(views.map((view) => (view.message as { context: { page: { url: string; referrer: string } } }).context.page)).toEqual([
      expect.objectContaining({ url: `${siteOrigin}/spa/home` }),
      expect.objectContaining({ url: `${siteOrigin}/spa/product/42`, referrer: `${siteOrigin}/spa/home` }),
    ]);
  });

  it('keeps the visitor and its click in server-set cookies when everything the script stored is gone (Safari after 7 days)', async () => {
    const click = ttclid();
    const landing = await visit(`${siteOrigin}/ferns?ttclid=${click}`, undefined, tab);
    const anonymousId = await anonymousIdOn(tab);
    expect(await landing.headerValues('set-cookie')).toEqual(expect.arrayContaining([expect.stringMatching(/^sbx_aid=/), expect.stringMatching(/^sbx_ttclid=/)]));

    // What Safari removes after 7 days: cookies the page's scripts wrote, and localStorage.
    const writtenByScript = await tab.evaluate(() => (globalThis as unknown as PageGlobals).scriptCookies);
    expect(writtenByScript).not.toEqual(expect.arrayContaining(['sbx_aid']));
    for (const name of new Set(writtenByScript)) await context.clearCookies({ name });
    await tab.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.clear());

    await visit(`${siteOrigin}/ferns/boston-fern`, undefined, tab);
    await tab.screenshot({ path: path.join(SCREENSHOTS, 'same-site-cookies-after-storage-cleared.png') });
    expect(await anonymousIdOn(tab)).toBe(anonymousId);
    expect((await pageViews(anonymousId))[1]?.message).toMatchObject({ context: { ttclid: click, page: { url: `${siteOrigin}/ferns/boston-fern` } } });
    expect(await purchase(anonymousId, 'order-after-storage-cleared')).toMatchObject({ status: 'delivered', ttclid: click });
  });
});
