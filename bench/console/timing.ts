import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { createTikTokClient } from '../../adplatform/tiktok';
import { createRepositories } from '../../db/repositories';
import { pendingMigrations } from '../../db/migration-status';
import { createSecretBox } from '../../db/secret-box';
import { buildApp } from '../../api/app';
import { createConversionRetryService } from '../../api/services/conversion-retry';
import { createErasureService } from '../../api/services/erasure';
import { createKnownLinks } from '../../api/ingest/known-links';
import { createReadinessCheck } from '../../db/readiness';
import { createBatchRecorder } from '../../api/ingest/record-batch';
import { createTikTokServices } from '../../api/services/tiktok-services';
import { createShopifyConnections } from '../../api/services/shopify-services';
import type { AdStatsSchedules } from '../../temporal/ad-stats-schedules';
import { createMailer } from '../../notify/mailer';

export const CONSOLE_SECRET_KEY = 'c0'.repeat(32);
const ADMIN_TOKEN = 'console-bench-admin-token-0123456789';
const OWNER = { email: 'bench@shop.example', password: 'a long passphrase for timing' };

/** The statistics schedule lives in Temporal, which this benchmark leaves out: it times PostgreSQL's answers. */
const noSchedules: AdStatsSchedules = {
  ensure: async () => undefined,
  remove: async () => undefined,
  describe: async () => undefined,
  trigger: async () => undefined,
  pause: async () => undefined,
} as unknown as AdStatsSchedules;

export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

export type ConsoleCall = (method: string, path: string, body?: unknown) => Promise<string>;
export interface CallTiming {
  label: string;
  p50: number;
  p95: number;
  max: number;
}

/**
 * The console API in this process over `db` (`url` its connection string), with the workspace's owner signed in:
 * `call` answers a console API path as the browser would ask it.
 */
export async function startConsoleApi(db: Knex, url: string, workspaceId: string): Promise<{ call: ConsoleCall; close: () => Promise<void> }> {
  const repos = createRepositories(db, createSecretBox(CONSOLE_SECRET_KEY));
  const noWake = async () => ({ woken: 0, busy: 0, failed: [] });
  const conversionRetry = createConversionRetryService({ db, repos, pipelines: { wakeWorkspaces: noWake } });
  const tiktok = createTikTokServices({ conversionRetry, db, repos, tiktok: createTikTokClient({ baseUrl: 'http://127.0.0.1:9' }), oauth: { authUrl: 'http://127.0.0.1:9/portal/auth' }, secretKey: CONSOLE_SECRET_KEY, schedules: noSchedules });
  const knownLinks = createKnownLinks();
  const app = buildApp({
    db,
    checkReadiness: createReadinessCheck({ connectionString: url, timeoutMs: 2_000, pendingMigrations: () => pendingMigrations(db) }),
    repos,
    recordBatch: createBatchRecorder(repos, knownLinks),
    startConversions: noWake,
    pipelines: { wakePartitions: noWake },
    conversionRetry,
    adminToken: ADMIN_TOKEN,
    publicUrl: 'http://127.0.0.1',
    tiktok,
    shopify: createShopifyConnections({ db, repos, app: {}, shopUrl: 'http://127.0.0.1:9/{shop}', targets: { internalAddresses: 'refuse' }, publicUrl: 'http://127.0.0.1', secretKey: CONSOLE_SECRET_KEY }),
    erasures: createErasureService({ db, repos, secretKey: CONSOLE_SECRET_KEY, onErased: () => knownLinks.clear() }),
    mailer: createMailer({ smtpUrl: undefined, from: 'bench@signalbox.example' }),
    sendTestAlert: async () => [],
    startPastEvents: async () => undefined,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await fetch(`${base}/admin/workspaces/${workspaceId}/members`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...OWNER, role: 'owner' }),
  });
  const signedIn = await fetch(`${base}/console/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) });
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const { csrfToken } = (await signedIn.json()) as { csrfToken: string };
  const call: ConsoleCall = async (method, path, body) => {
    const response = await fetch(`${base}/console/api/${path}`, {
      method,
      headers: { cookie, 'x-csrf-token': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text;
  };
  return { call, close: () => app.close() };
}

/** The calls behind the console's pages, as label, method, path and body. */
export async function consoleCalls(call: ConsoleCall, workspaceId: string): Promise<CallSpec[]> {
  const ws = `workspaces/${workspaceId}`;
  const firstPage = JSON.parse(await call('GET', `${ws}/conversions?limit=50`)) as { conversions: { id: string }[]; nextCursor: string };
  const period = (days: number) => `from=${day(-(days - 1))}&to=${day(0)}&timeZone=Europe/Berlin`;
  const calls: CallSpec[] = [
    ['workspace (every page)', 'GET', ws],
    ['setup checklist (every page)', 'GET', `${ws}/setup`],
    ['overview today', 'GET', `${ws}/overview?${period(1)}`],
    ['overview 7 days', 'GET', `${ws}/overview?${period(7)}`],
    ['overview 28 days', 'GET', `${ws}/overview?${period(28)}`],
    ['overview 90 days', 'GET', `${ws}/overview?${period(90)}`],
    ['sources: TikTok', 'GET', `${ws}/tiktok`],
    ['sources: API keys', 'GET', `${ws}/api-keys`],
    ['sources: install', 'GET', `${ws}/install`],
    ['rules with 7-day counts', 'GET', `${ws}/rules`],
    ['conversions, newest 50', 'GET', `${ws}/conversions?limit=50`],
    ['conversions, page 2', 'GET', `${ws}/conversions?limit=50&cursor=${firstPage.nextCursor}`],
    ['conversions, failed', 'GET', `${ws}/conversions?status=failed&limit=50`],
    ['conversions, reason', 'GET', `${ws}/conversions?status=skipped&reason=click_outside_attribution_window&limit=50`],
    ['conversions, 28 days', 'GET', `${ws}/conversions?${period(28)}&limit=50`],
    ['conversions, order ID', 'GET', `${ws}/conversions?q=o-500000`],
    ['conversions, user ID', 'GET', `${ws}/conversions?q=u-1234`],
    ['conversions, anonymous ID', 'GET', `${ws}/conversions?q=a-4321`],
    ['conversion detail', 'GET', `${ws}/conversions/${firstPage.conversions[3]?.id}`],
    ['debugger, opening', 'GET', `${ws}/debugger`],
    ['people by email', 'POST', `${ws}/people/lookup`, { kind: 'email', value: 'user1234@shop.example' }],
    ['people by anonymous ID', 'POST', `${ws}/people/lookup`, { kind: 'anonymous_id', value: 'a-1236' }],
    ['ads: campaigns 28 days', 'GET', `${ws}/ads/report?level=campaign&from=${day(-27)}&to=${day(0)}`],
    ['ads: daily chart 90 days', 'GET', `${ws}/ads/report?level=campaign&granularity=day&from=${day(-89)}&to=${day(0)}`],
    ['ads: ads of a campaign', 'GET', `${ws}/ads/report?level=ad&campaignId=1800000000000000003&from=${day(-27)}&to=${day(0)}`],
    ['ads: CSV, ads 90 days', 'GET', `${ws}/ads/report.csv?level=ad&granularity=day&from=${day(-89)}&to=${day(0)}`],
    ['members', 'GET', `${ws}/members`],
    ['change log', 'GET', `${ws}/change-log?limit=50`],
    ['sessions', 'GET', 'sessions'],
  ];
  // A store with fewer than two pages of conversions has no second page and no detail to open.
  return calls.filter(([label]) => (label !== 'conversions, page 2' || firstPage.nextCursor) && (label !== 'conversion detail' || firstPage.conversions[3]));
}

type CallSpec = [label: string, method: string, path: string, body?: unknown];

function timing(label: string, times: number[]): CallTiming {
  const sorted = [...times].sort((a, b) => a - b);
  return { label, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) as number };
}

async function timed(call: ConsoleCall, [, method, path, body]: CallSpec): Promise<number> {
  const t0 = performance.now();
  await call(method, path, body);
  return performance.now() - t0;
}

/** Each call twice unmeasured, then `rounds` times measured, one after another. */
export async function timeCalls(call: ConsoleCall, calls: CallSpec[], rounds: number): Promise<CallTiming[]> {
  return timeSideBySide([{ call, calls }], rounds).then(([timings]) => timings as CallTiming[]);
}

/**
 * The same calls (by label) on several consoles, each call twice unmeasured on each, then `rounds` times measured
 * round by round, the consoles' order turning each round, so that what the machine does meanwhile falls on all of
 * them alike. A console's timings hold the calls it has, in its own order.
 */
export async function timeSideBySide(consoles: { call: ConsoleCall; calls: CallSpec[] }[], rounds: number): Promise<CallTiming[][]> {
  const times = consoles.map(() => new Map<string, number[]>());
  const labels = [...new Set(consoles.flatMap(({ calls }) => calls.map(([label]) => label)))];
  for (const label of labels) {
    const taking = consoles.flatMap(({ call, calls }, index) => {
      const spec = calls.find(([named]) => named === label);
      return spec === undefined ? [] : [{ call, spec, index }];
    });
    for (const { call, spec } of taking) for (let warm = 0; warm < 2; warm += 1) await timed(call, spec);
    for (let round = 0; round < rounds; round += 1) {
      for (let turn = 0; turn < taking.length; turn += 1) {
        const { call, spec, index } = taking[(turn + round) % taking.length] as (typeof taking)[number];
        const measured = times[index] as Map<string, number[]>;
        const samples = measured.get(label) ?? [];
        samples.push(await timed(call, spec));
        measured.set(label, samples);
      }
    }
  }
  return consoles.map(({ calls }, index) => calls.map(([label]) => timing(label, (times[index] as Map<string, number[]>).get(label) as number[])));
}
