import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Workspace } from '../db/repositories/workspaces';
import type { ConversionRow, EventRow } from '../db/types';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, PIXEL_SCRIPT_PATH, type CountedEvent } from '../devstack/tiktok-fake';
import { ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { TEST_ADMIN_TOKEN } from './helpers/test-app';
import { chromiumLaunch } from './helpers/chromium';
import { startTagIngest } from './helpers/tag-ingest';

// Temporal's worker, Chromium and a round trip through the pipeline per conversion on a busy two-core machine.
jest.setTimeout(90_000);

/** The page's globals this test touches (the test itself is compiled without DOM types). */
interface PageGlobals {
  signalbox: {
    track(event: string, properties?: Record<string, unknown>): void;
    identify(userId: string, traits?: Record<string, unknown>): void;
    ready(callback: () => void): void;
  };
  ttq?: unknown;
}

/** One pixel per scenario, so that what the fake counts for one cannot come from another. */
const PIXELS = { load: 'CPIXELDEDUPLOAD00001', page: 'CPIXELDEDUPPAGE00001', consent: 'CPIXELDEDUPCONSENT01', off: 'CPIXELDEDUPOFF000001' } as const;
type Scenario = keyof typeof PIXELS;

let pipeline: TestPipeline;
let ingest: FastifyInstance;
let ingestUrl: string;
let site: Server;
let siteOrigin: string;
let browser: Browser;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-pixel-'));
let starts: Promise<unknown>[];
const shops = {} as Record<Scenario, { workspace: Workspace; key: string }>;

/**
 * TikTok's base code as a shop pastes it (the queue stub and `ttq.load`, as its official snippet builds them), with the
 * fake's stand-in where the snippet has https://analytics.tiktok.com/i18n/pixel/events.js.
 */
function tiktokBaseCode(libraryUrl: string, pixelCode: string): string {
  return `<script>
(function (w, d, t) {
  w.TiktokAnalyticsObject = t;
  var ttq = (w[t] = w[t] || []);
  ttq.methods = ['page', 'track', 'identify', 'instances', 'debug', 'on', 'off', 'once', 'ready', 'alias', 'group', 'enableCookie', 'disableCookie', 'holdConsent', 'revokeConsent', 'grantConsent'];
  ttq.setAndDefer = function (target, method) {
    target[method] = function () { target.push([method].concat(Array.prototype.slice.call(arguments, 0))); };
  };
  for (var i = 0; i < ttq.methods.length; i++) ttq.setAndDefer(ttq, ttq.methods[i]);
  ttq.instance = function (code) {
    var instance = ttq._i[code] || [];
    for (var n = 0; n < ttq.methods.length; n++) ttq.setAndDefer(instance, ttq.methods[n]);
    return instance;
  };
  ttq.load = function (code, options) {
    var url = ${JSON.stringify(libraryUrl)};
    ttq._i = ttq._i || {}; ttq._i[code] = []; ttq._i[code]._u = url;
    ttq._t = ttq._t || {}; ttq._t[code] = +new Date();
    ttq._o = ttq._o || {}; ttq._o[code] = options || {};
    var script = d.createElement('script');
    script.type = 'text/javascript'; script.async = true; script.src = url + '?sdkid=' + code + '&lib=' + t;
    var first = d.getElementsByTagName('script')[0];
    first.parentNode.insertBefore(script, first);
  };
  ttq.load(${JSON.stringify(pixelCode)});
  ttq.page();
})(window, document, 'ttq');
</script>`;
}

/** The settings API, over HTTP as the CLI and the console's owners use it. */
async function admin(method: string, route: string, body: unknown): Promise<void> {
  const response = await fetch(`${ingestUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: HTTP ${response.status} ${await response.text()}`);
}

/** A shop connected to its own pixel, with the pixel setting and its three conversion rules set through the settings API. */
async function shop(browserPixel: 'off' | 'load' | 'page', pixelCode: string, consentRequired: boolean): Promise<{ workspace: Workspace; key: string }> {
  const workspace = await pipeline.workspace();
  await pipeline.repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode });
  await admin('PATCH', `/admin/workspaces/${workspace.id}/settings`, { browserPixel, allowedOrigins: [siteOrigin], consentRequired });
  const rules = `/admin/workspaces/${workspace.id}/conversion-rules`;
  await admin('PUT', `${rules}/purchase`, { value: { source: 'order_total' } });
  await admin('PUT', `${rules}/add_to_cart`, { value: { source: 'fixed', amount: 12.5, currency: 'EUR' } });
  await admin('PUT', `${rules}/signup`, { value: { source: 'none' } });
  return { workspace, key: (await pipeline.repos.apiKeys.create(workspace.id, 'site', 'browser')).key };
}

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  await pipeline.fake.registerToken({ accessToken: FAKE_TIKTOK_ACCESS_TOKEN, pixelCodes: Object.values(PIXELS), advertiserIds: [FAKE_TIKTOK_ADVERTISER_ID] });
  const libraryUrl = `${pipeline.fake.url}${PIXEL_SCRIPT_PATH}`;
  ({ app: ingest, url: ingestUrl, starts } = await startTagIngest(pipeline, scratch, { tiktokPixelUrl: libraryUrl }));

  const tag = (scenario: Scenario) => `<script async src="${ingestUrl}/js/v1/signalbox.js" data-key="${shops[scenario].key}"></script>`;
  site = createServer((request, response) => {
    const scenario = (Object.keys(PIXELS) as Scenario[]).find((name) => (request.url ?? '').startsWith(`/${name}/`));
    if (scenario === undefined) return void response.writeHead(404).end();
    const head = scenario === 'page' ? `${tiktokBaseCode(libraryUrl, PIXELS.page)}${tag(scenario)}` : tag(scenario);
    const body = scenario === 'consent' ? '<div id="banner">We would like to measure our ads. <button id="accept" onclick="signalbox.consent.grant()">Accept</button></div>' : '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Ferns</title>${head}</head><body><h1>Ferns</h1>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  shops.load = await shop('load', PIXELS.load, false);
  shops.page = await shop('page', PIXELS.page, false);
  shops.consent = await shop('load', PIXELS.consent, true);
  shops.off = await shop('off', PIXELS.off, false);

  browser = await chromium.launch(chromiumLaunch());
});

afterAll(async () => {
  await browser?.close();
  await ingest?.close();
  await new Promise((resolve) => site?.close(resolve));
  await pipeline?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Each scenario is a new visitor on a new device. */
let context: BrowserContext;
let tab: Page;
/** The pixel library scripts the page asked for. */
let libraryLoads: string[];
beforeEach(async () => {
  context = await browser.newContext();
  tab = await context.newPage();
  libraryLoads = [];
  tab.on('request', (request) => {
    if (request.url().startsWith(`${pipeline.fake.url}${PIXEL_SCRIPT_PATH}`)) libraryLoads.push(request.url());
  });
});
afterEach(() => context.close());

/** Opens the page and waits until the tag has read the workspace's settings. */
async function land(url: string): Promise<void> {
  await tab.goto(url);
  await tab.evaluate(() => new Promise<void>((resolve) => (globalThis as unknown as PageGlobals).signalbox.ready(resolve)));
}

/** A visitor who signs up, adds a fern to the cart and buys it. */
async function shopAround(orderId: string): Promise<void> {
  await tab.evaluate((order) => {
    const { signalbox } = globalThis as unknown as PageGlobals;
    signalbox.identify('fern-lover', { email: 'fern@example.com' });
    signalbox.track('signup');
    signalbox.track('add_to_cart', { product_id: 'boston-fern', name: 'Boston fern', price: 12.5, quantity: 1 });
    signalbox.track('purchase', { order_id: order, total: 59, currency: 'EUR', products: [{ product_id: 'boston-fern', price: 59, quantity: 1 }] });
  }, orderId);
}

/** Waits for something that happens in the background; gives up after 20 s. */
async function eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen within 20 s`);
}

/** The workspace's conversions once there are `count` of them and every one has left `pending`. */
async function settledConversions(workspace: Workspace, count: number): Promise<ConversionRow[]> {
  const rows = await eventually(`${count} conversions`, async () => {
    const found: ConversionRow[] = await pipeline.database.db('conversions').where({ workspace_id: workspace.id }).orderBy('id');
    return found.length >= count ? found : undefined;
  });
  await Promise.all(starts);
  return Promise.all(rows.map((row) => pipeline.settled(row)));
}

/** What the fake counts for the pixel once every conversion arrived through both channels (page views left out). */
async function countedOnceEach(pixelCode: string, conversions: ConversionRow[]): Promise<CountedEvent[]> {
  const expected = conversions.map((c) => ({ event: c.tiktok_event, eventId: c.event_id, pixel: 1, eventsApi: 1, counted: 1 }));
  return eventually(`${pixelCode}'s events through both channels`, async () => {
    const events = (await pipeline.fake.pixelCounts(pixelCode)).events.filter((row) => row.eventId !== null);
    const both = conversions.every((c) => events.some((row) => row.eventId === c.event_id && row.pixel > 0 && row.eventsApi > 0));
    return both ? events : undefined;
  }).then((events) => {
    expect(events).toEqual(expect.arrayContaining(expected));
    expect(events).toHaveLength(expected.length);
    return events;
  });
}

/** Value and currency as each channel sent them, per event_id: the pixel's report and the Events API payload must agree. */
async function valuesByChannel(pixelCode: string): Promise<{ pixel: Record<string, unknown>; eventsApi: Record<string, unknown> }> {
  const { events, pixelCalls } = await pipeline.fake.receivedEvents();
  const pick = (properties: Record<string, unknown> | undefined) => ({ value: properties?.value, currency: properties?.currency });
  return {
    pixel: Object.fromEntries(pixelCalls.filter((c) => c.pixelCode === pixelCode && c.method === 'track').map((c) => [c.eventId, pick(c.properties)])),
    eventsApi: Object.fromEntries(events.filter((e) => e.eventSourceId === pixelCode).map((e) => [e.eventId, pick(e.payload.properties as Record<string, unknown> | undefined)])),
  };
}

const cookieNamed = async (name: string) => (await context.cookies(siteOrigin)).find((cookie) => cookie.name === name)?.value;

describe('TikTok pixel and Events API, counted once', () => {
  it('load: the stand-in sets _ttp, the tag sends it to ingest, and each conversion reaches TikTok both ways with the same event and event_id', async () => {
    const click = ttclid();
    await land(`${siteOrigin}/load/ferns?ttclid=${click}`);
    const ttp = await eventually('the _ttp cookie', () => cookieNamed('_ttp'));
    expect(ttp).toMatch(/^[A-Za-z0-9]{27}$/);
    expect(libraryLoads).toEqual([`${pipeline.fake.url}${PIXEL_SCRIPT_PATH}?sdkid=${PIXELS.load}&lib=ttq`]);

    await shopAround('order-load-1');
    const conversions = await settledConversions(shops.load.workspace, 3);
    expect(conversions.map((c) => [c.source_event, c.tiktok_event, c.status, c.ttclid, c.ttp]).sort()).toEqual([
      ['add_to_cart', 'AddToCart', 'delivered', click, ttp],
      ['purchase', 'CompletePayment', 'delivered', click, ttp],
      ['signup', 'CompleteRegistration', 'delivered', click, ttp],
    ]);
    expect(conversions.find((c) => c.source_event === 'purchase')?.event_id).toBe('order-load-1');
    const purchase: EventRow | undefined = await pipeline.database.db('events').where({ workspace_id: shops.load.workspace.id, type: 'track', event_name: 'purchase' }).first();
    expect(purchase?.message).toMatchObject({ context: { ttclid: click, ttp } });

    await countedOnceEach(PIXELS.load, conversions);
    const { pixel, eventsApi } = await valuesByChannel(PIXELS.load);
    expect(pixel).toEqual(eventsApi);
    expect(pixel['order-load-1']).toEqual({ value: 59, currency: 'EUR' });
    const { pixelCalls, events } = await pipeline.fake.receivedEvents();
    const ours = pixelCalls.filter((c) => c.pixelCode === PIXELS.load);
    expect(ours.filter((c) => c.method === 'track').every((c) => c.ttp === ttp)).toBe(true);
    expect(ours.some((c) => c.method === 'identify' && c.identity.email === 'fern@example.com')).toBe(true);
    expect(events.filter((e) => e.eventSourceId === PIXELS.load).map((e) => (e.payload.user as { ttp?: string }).ttp)).toEqual([ttp, ttp, ttp]);
  });

  it("page: the page's own ttq receives the same calls, and the tag loads no library of its own", async () => {
    await land(`${siteOrigin}/page/ferns?ttclid=${ttclid()}`);
    await shopAround('order-page-1');
    const conversions = await settledConversions(shops.page.workspace, 3);
    expect(conversions.every((c) => c.status === 'delivered')).toBe(true);

    await countedOnceEach(PIXELS.page, conversions);
    const { pixel, eventsApi } = await valuesByChannel(PIXELS.page);
    expect(pixel).toEqual(eventsApi);
    expect(libraryLoads).toEqual([`${pipeline.fake.url}${PIXEL_SCRIPT_PATH}?sdkid=${PIXELS.page}&lib=ttq`]);
  });

  it('consent held: nothing reaches the pixel and no _ttp is set until the visitor accepts, then the held calls go, counted once', async () => {
    await land(`${siteOrigin}/consent/ferns?ttclid=${ttclid()}`);
    await shopAround('order-consent-1');
    await tab.waitForLoadState('networkidle');
    expect((await pipeline.fake.receivedEvents()).pixelCalls.filter((c) => c.pixelCode === PIXELS.consent)).toEqual([]);
    expect(await cookieNamed('_ttp')).toBeUndefined();
    expect(await pipeline.database.db('conversions').where({ workspace_id: shops.consent.workspace.id })).toEqual([]);

    await tab.click('#accept');
    const conversions = await settledConversions(shops.consent.workspace, 3);
    await countedOnceEach(PIXELS.consent, conversions);
    const ttp = await cookieNamed('_ttp');
    expect(ttp).toMatch(/^[A-Za-z0-9]{27}$/);
    const { pixelCalls } = await pipeline.fake.receivedEvents();
    expect(pixelCalls.filter((c) => c.pixelCode === PIXELS.consent && c.method === 'track').map((c) => c.ttp)).toEqual([ttp, ttp, ttp]);
  });

  it('off: the tag leaves the pixel alone and the server sends as before', async () => {
    await land(`${siteOrigin}/off/ferns?ttclid=${ttclid()}`);
    await shopAround('order-off-1');
    const conversions = await settledConversions(shops.off.workspace, 3);
    expect(conversions.every((c) => c.status === 'delivered')).toBe(true);
    await tab.waitForLoadState('networkidle');

    expect(libraryLoads).toEqual([]);
    expect(await tab.evaluate(() => (globalThis as unknown as PageGlobals).ttq === undefined)).toBe(true);
    expect(await cookieNamed('_ttp')).toBeUndefined();
    const counts = await pipeline.fake.pixelCounts(PIXELS.off);
    expect(counts.events).toEqual(expect.arrayContaining(conversions.map((c) => ({ event: c.tiktok_event, eventId: c.event_id, pixel: 0, eventsApi: 1, counted: 1 }))));
    expect(counts.total).toEqual({ pixel: 0, eventsApi: 3, counted: 3 });
  });
});
