import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Signalbox from '@signalbox/api';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Workspace } from '../db/repositories/workspaces';
import type { ConversionRow, EventRow } from '../db/types';
import { buildTestApp } from '../ingest/testing/test-app';
import { loadTrackingScript } from '../ingest/tracking-script';
import { buildTrackingScript } from '../web/build';
import { ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

/** Without the background-networking flags Chromium dials out, and this machine's closed network refuses it. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Starting Temporal's worker and Chromium takes a few seconds on a busy two-core machine.
jest.setTimeout(60_000);

/** The page's globals this test touches (the test itself is compiled without DOM types). */
interface PageGlobals {
  signalbox: { getAnonymousId(): string; track(event: string): void };
  localStorage: { getItem(key: string): string | null };
}

let pipeline: TestPipeline;
let ingest: FastifyInstance;
let ingestUrl: string;
let site: Server;
let siteOrigin: string;
let browser: BrowserContext;
let page: Page;
let workspace: Workspace;
let backend: Signalbox;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-browser-'));
const starts: Promise<unknown>[] = [];

/** The shop's landing page, with the one-tag install the README shows. */
function startSite(scriptTag: () => string): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Ferns</title>${scriptTag()}</head><body><h1>Ferns</h1></body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  const built = await buildTrackingScript(path.join(scratch, 'signalbox.js'));
  ({ app: ingest } = buildTestApp(pipeline.database.db, {
    repos: pipeline.repos,
    recordBatch: pipeline.recordBatch,
    startConversions: (conversions) => {
      const started = pipeline.startConversions(conversions);
      starts.push(started);
      return started;
    },
    trackingScript: loadTrackingScript(built.outfile),
  }));
  ingestUrl = await ingest.listen({ port: 0, host: '127.0.0.1' });

  let browserKey = '';
  site = await startSite(() => `<script async src="${ingestUrl}/js/v1/signalbox.js" data-key="${browserKey}"></script>`);
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  workspace = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
  await pipeline.repos.workspaces.updateSettings(workspace.id, { allowedOrigins: [siteOrigin] });
  browserKey = (await pipeline.repos.apiKeys.create(workspace.id, 'site', 'browser')).key;
  backend = new Signalbox({ apiKey: (await pipeline.repos.apiKeys.create(workspace.id, 'backend')).key, host: ingestUrl });

  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  browser = await chromium.launchPersistentContext(path.join(scratch, 'profile'), { executablePath, headless: true, args: CHROMIUM_ARGS });
  page = browser.pages()[0] ?? (await browser.newPage());
});

afterAll(async () => {
  await browser?.close();
  await backend?.close();
  await ingest?.close();
  await new Promise((resolve) => site?.close(resolve));
  await pipeline?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Opens a URL of the shop and waits until the script's page view was accepted by the ingest API. */
async function visit(url: string, referer?: string): Promise<void> {
  const accepted = page.waitForResponse((response) => response.url() === `${ingestUrl}/v1/batch` && response.request().method() === 'POST');
  await page.goto(url, { referer });
  expect((await accepted).status()).toBe(200);
}

async function pageViews(anonymousId: string): Promise<EventRow[]> {
  return pipeline.database.db('events').where({ workspace_id: workspace.id, anonymous_id: anonymousId, type: 'page' }).orderBy('id');
}

/** The backend's purchase for the visitor, through @signalbox/api; resolves with the conversion once its workflow ends. */
async function purchase(anonymousId: string, orderId: string): Promise<ConversionRow> {
  await backend.track({ event: 'purchase', userId: 'fern-lover', anonymousId, properties: { order_id: orderId, total: 59, currency: 'EUR' } });
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
