import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { ConversionRow } from '../../db/types';
import { FAKE_TIKTOK_APP_ID, FAKE_TIKTOK_APP_SECRET } from '../../devstack/tiktok-fake';
import { reservePort, type ReservedPort } from '../../devstack/ports';
import { createTestAlertSender } from '../../temporal/test-alerts';
import { createPastEventsStarter } from '../../temporal/past-events';
import { buildTestApp, TEST_ADMIN_TOKEN, type TestAppOptions } from './test-app';
import { closeAll } from './close-all';
import { TestPipeline, type TestPipelineOptions } from './pipeline';
import { chromiumLaunch } from './chromium';

const ROOT = path.join(__dirname, '..', '..');
/** A laptop's window and a phone's: every page is looked at in both, and must fit their width. */
export const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export const OWNER = { email: 'owner@fern.example', password: 'a long enough passphrase' };

/** The console as `npm run build` makes it, built afresh for this run. */
function buildConsole(outDir: string): void {
  // NODE_ENV is jest's `test` here: without `production` Vite would build React's development code, not what ships.
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--logLevel', 'error'], {
    cwd: path.join(ROOT, 'console'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

interface Box {
  tagName: string;
  className: string;
  textContent: string | null;
  getBoundingClientRect(): { right: number };
}

export interface ConsoleInBrowser {
  pipeline: TestPipeline;
  ingest: FastifyInstance;
  ingestUrl: string;
  page: Page;
  browser: BrowserContext;
  /** A workspace with its owner (`OWNER`), made by the operator's first step; the person is not signed in yet. */
  workspaceId: string;
  /** Responses of this server with status 404: none is expected, the icon included. */
  notFound: string[];
  /** The console as built for this run, for a second server a test starts with other settings. */
  consoleDirectory: string;
  /** Where screenshots go (`test-artifacts/<artifacts>`). */
  artifacts: string;
  /** `/console/w/<workspace>/<pagePath>`. */
  open(pagePath: string): Promise<unknown>;
  /** A screenshot of the page at each size (`<name>-desktop.png`, `<name>-phone.png`); at neither does it scroll sideways. */
  shots(name: string): Promise<void>;
  /** Waits for the confirmation a write shows in the corner ("Settings saved"). */
  toast(text: string): Promise<void>;
  /**
   * A value the server refuses, its message beside the field, then the right value and ONE click on the button. The
   * click used to be lost: leaving the field took the message away, and the button moved up from under the pointer.
   */
  refusedThenOneClick(field: Locator, refused: { value: string; message: string }, value: string, button: string): Promise<void>;
  /** The `name` of the focused element. */
  focusedName(): Promise<string>;
  /** The workspace's conversion with this event_id once its workflow has settled it. */
  settledConversion(eventId: string): Promise<ConversionRow>;
  /** Signs the owner in through the sign-in form (for files that do not walk the sign-in themselves). */
  signInAsOwner(): Promise<void>;
  /** Forgets the browser's session, then signs `person` in through the sign-in form, landing on the overview. */
  signInAs(person: { email: string; password: string }): Promise<void>;
  close(): Promise<void>;
}

/**
 * The console as people use it: the ingest server with the built console, a real pipeline (PostgreSQL, Temporal, the
 * fake TikTok) and headless Chromium, on reserved ports. Screenshots go to `test-artifacts/<artifacts>` (gitignored).
 */
export async function startConsoleInBrowser(options: { artifacts: string; app?: (pipeline: TestPipeline) => TestAppOptions; pipeline?: TestPipelineOptions }): Promise<ConsoleInBrowser> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-console-'));
  const artifacts = path.join(ROOT, 'test-artifacts', options.artifacts);
  const consoleDirectory = path.join(scratch, 'console');
  buildConsole(consoleDirectory);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  let pipeline: TestPipeline | undefined;
  let ingest: FastifyInstance | undefined;
  let ingestPort: ReservedPort | undefined;
  let browser: BrowserContext | undefined;
  const close = () =>
    closeAll(
      () => browser?.close(),
      () => ingest?.close(),
      () => ingestPort?.release(),
      () => pipeline?.close(),
      () => rmSync(scratch, { recursive: true, force: true }),
    );
  try {
    pipeline = await TestPipeline.start(options.pipeline);
    // Known before the server starts: its public URL and the OAuth redirect URI name it.
    ingestPort = await reservePort();
    const { port } = ingestPort;
    const ingestUrl = `http://127.0.0.1:${port}`;
    ({ app: ingest } = buildTestApp(pipeline.database.db, {
      repos: pipeline.repos,
      recordBatch: pipeline.recordBatch,
      startConversions: pipeline.startConversions,
      tiktokApiUrl: pipeline.fake.url,
      oauth: { appId: FAKE_TIKTOK_APP_ID, secret: FAKE_TIKTOK_APP_SECRET, redirectUri: `${ingestUrl}/oauth/tiktok/callback`, authUrl: `${pipeline.fake.url}/portal/auth` },
      schedules: pipeline.adStatsSchedules,
      consoleDirectory,
      publicUrl: ingestUrl,
      workflowLink: (id) => `http://127.0.0.1:8233/namespaces/default/workflows/${id}`,
      sendTestAlert: createTestAlertSender(pipeline.client, pipeline.taskQueue),
      startPastEvents: createPastEventsStarter(pipeline.client, pipeline.taskQueue),
      ...options.app?.(pipeline),
    }));
    await ingest.listen({ port, host: '127.0.0.1' });

    // The operator's first step (`signalbox users create … --owner ws_…`), then everything else in the browser.
    const admin = (method: string, url: string, body: unknown) =>
      fetch(`${ingestUrl}${url}`, { method, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const workspaceId = ((await admin('POST', '/admin/workspaces', { name: 'Fern shop' })) as { id: string }).id;
    await admin('POST', `/admin/workspaces/${workspaceId}/members`, { email: OWNER.email, role: 'owner', password: OWNER.password });

    browser = await chromium.launchPersistentContext(path.join(scratch, 'profile'), { ...chromiumLaunch(), viewport: SIZES[0] });
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ingestUrl });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404 && response.url().startsWith(ingestUrl)) notFound.push(response.url());
    });

    /** The page's width as laid out, the window's, and the elements that stick out past its right edge (compiled without DOM types, hence the narrow shapes). */
    const widths = () =>
      page.evaluate(async () => {
        const window = globalThis as unknown as {
          innerWidth: number;
          requestAnimationFrame(callback: () => void): void;
          document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): Iterable<Box> };
        };
        // Two frames: the charts' resize observers have run.
        await new Promise<void>((resolve) => window.requestAnimationFrame(() => window.requestAnimationFrame(resolve)));
        const outside = [...window.document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5);
        return {
          scrollWidth: window.document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          outside: outside.slice(-3).map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${(element.textContent ?? '').slice(0, 60)}`),
        };
      });

    async function signInAs(person: { email: string; password: string }): Promise<void> {
      await (browser as BrowserContext).clearCookies();
      // Straight to the sign-in page: opening a page without a session sends the browser there by itself, a second
      // navigation that can cut the first short.
      await page.goto(`${ingestUrl}/console/sign-in?next=${encodeURIComponent(`/console/w/${workspaceId}/overview`)}`);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByLabel('Password').press('Enter');
      await page.waitForURL(`${ingestUrl}/console/w/${workspaceId}/overview`);
    }

    return {
      pipeline,
      ingest,
      ingestUrl,
      page,
      browser,
      workspaceId,
      notFound,
      consoleDirectory,
      artifacts,
      open: (pagePath) => page.goto(`${ingestUrl}/console/w/${workspaceId}/${pagePath}`),
      async shots(name) {
        for (const size of SIZES) {
          await page.setViewportSize(size);
          const { scrollWidth, innerWidth, outside } = await widths();
          expect({ page: name, size: size.name, scrollWidth, fits: scrollWidth <= innerWidth, outside }).toEqual({ page: name, size: size.name, scrollWidth, fits: true, outside });
          // Toasts sit at the window's bottom, in the middle of a full-page shot: left out (the tests wait for each).
          await page.screenshot({ path: path.join(artifacts, `${name}-${size.name}.png`), fullPage: true, style: '.toasts { display: none; }' });
        }
        await page.setViewportSize(SIZES[0]);
      },
      toast: (text) => page.getByRole('alertdialog', { name: text }).first().waitFor(),
      async refusedThenOneClick(field, refused, value, button) {
        await field.fill(refused.value);
        await page.getByRole('button', { name: button }).click();
        await page.getByText(refused.message).waitFor();
        await field.fill(value);
        await page.getByRole('button', { name: button }).click();
      },
      focusedName: () =>
        page.evaluate(() => {
          const active = (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }).document.activeElement;
          return active?.getAttribute('name') ?? '';
        }),
      async settledConversion(eventId) {
        const started = pipeline as TestPipeline;
        for (let attempt = 0; attempt < 300; attempt += 1) {
          const row = (await started.database.db('conversions').where({ workspace_id: workspaceId, event_id: eventId }).first()) as ConversionRow | undefined;
          if (row !== undefined) return started.settled(row);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`conversion ${eventId} never appeared`);
      },
      signInAsOwner: () => signInAs(OWNER),
      signInAs,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
