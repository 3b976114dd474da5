import net from 'node:net';
import path from 'node:path';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from './tiktok-fake/seed';
import { ConfigError, loadEnv } from '../config/env';
import { createDatabase, migrateToLatest } from '../db/knex';
import { WORKER_RUNNING } from '../worker/running';
import { INGEST_NODE_FLAGS, startNodeChild, stopChild, waitForHttp, type Child } from './children';
import { devPasswordStillWorks, devSignInText, ensureDevSignIn } from './dev-sign-in';
import { ingestTikTokEnv } from './tiktok-env';
import { SHOPIFY_COMPLIANCE_PATH } from '../api/http/paths';
import { FAKE_SHOP_DOMAIN, FAKE_SHOPIFY_API_KEY, FAKE_SHOPIFY_API_SECRET, startFakeShopifyAdmin, startFakeStorefront } from './shopify-fake';
import { devStackEnvSchema, type DevStackEnv } from './env';
import { announceRunningStack } from './running-stacks';
import { loadOrCreateState, saveState } from './state';
import { startMailSink } from './mail-sink';
import { locateTemporalCli } from './temporal-cli';
import { startTemporalDevServer } from './temporal-dev-server';

const HOST = '127.0.0.1';
const BUILD_ROOT = path.join(__dirname, '..');
const log = (line: string) => console.log(`[devstack] ${line}`);
/** Worker start-up bundles the workflow code: seconds on a quiet machine, longer on a busy one. */
const WORKER_START_TIMEOUT_MS = 180_000;

async function assertPortFree(port: number, what: string, override: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer().once('error', () => reject(new Error(`Port ${port} (${what}) is in use. Stop what uses it, or set ${override}.`)));
    probe.listen(port, HOST, () => probe.close(() => resolve()));
  });
}

/** Lets the CLI find this stack from any folder; returns the stop step that withdraws it. */
function announce(dataDir: string, ingestUrl: string): () => Promise<void> {
  try {
    const withdraw = announceRunningStack({ dataDir, ingestUrl }, process.env);
    return async () => withdraw();
  } catch (error) {
    log(`the CLI will find this stack only through SIGNALBOX_DATA_DIR: ${(error as Error).message}`);
    return async () => undefined;
  }
}

/** How the CLI finds a stack whose data is not in `.signalbox` here. */
function cliFinds(dataDir: string): string {
  return dataDir === path.resolve('.signalbox') ? '' : `; in another shell set SIGNALBOX_DATA_DIR=${dataDir}, or run it where no other stack is`;
}

/** The stack in dependency order; each part registers how to stop it, and stopping runs in reverse. */
async function startStack(env: DevStackEnv, stops: (() => Promise<void>)[], children: Child[]): Promise<void> {
  const dataDir = path.resolve(env.SIGNALBOX_DATA_DIR);
  const state = loadOrCreateState(dataDir);

  const childEnv = (extra: Record<string, string>) => ({ ...process.env, LOG_LEVEL: env.LOG_LEVEL, ...extra });
  const track = (child: Child) => {
    children.push(child);
    stops.push(() => stopChild(child));
    return child;
  };

  let databaseUrl = env.DATABASE_URL;
  if (databaseUrl === undefined) {
    await assertPortFree(env.POSTGRES_PORT, 'embedded PostgreSQL', 'POSTGRES_PORT or DATABASE_URL');
    log(`starting embedded PostgreSQL (data in ${path.join(dataDir, 'postgres')})`);
    const postgres = track(
      startNodeChild('postgres', path.join(BUILD_ROOT, 'devstack/postgres-main.js'), childEnv({ DATA_DIR: path.join(dataDir, 'postgres'), PORT: String(env.POSTGRES_PORT) })),
    );
    databaseUrl = (await postgres.waitForLine(/^ready (\S+)$/))[1] as string;
  }
  const db = createDatabase({ url: databaseUrl, poolMax: 1 });
  const applied = await migrateToLatest(db).finally(() => db.destroy());
  log(applied.length > 0 ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');

  let temporalAddress = env.TEMPORAL_ADDRESS;
  let temporalUi: string | undefined;
  if (temporalAddress === undefined) {
    await assertPortFree(env.TEMPORAL_PORT, 'Temporal', 'TEMPORAL_PORT or TEMPORAL_ADDRESS');
    await assertPortFree(env.TEMPORAL_UI_PORT, 'Temporal UI', 'TEMPORAL_UI_PORT');
    const cli = await locateTemporalCli({
      explicitPath: env.TEMPORAL_CLI_PATH,
      projectToolsDir: path.join(BUILD_ROOT, '..', '.tools', 'bin'),
      allowBuild: true,
      allowSdkDownload: true,
      log,
    });
    log(`starting the Temporal dev server (${cli.kind === 'binary' ? cli.path : 'SDK download'}; history in ${path.join(dataDir, 'temporal.db')})`);
    const server = await startTemporalDevServer({
      cli,
      ip: HOST,
      port: env.TEMPORAL_PORT,
      uiPort: env.TEMPORAL_UI_PORT,
      dbFile: path.join(dataDir, 'temporal.db'),
      namespace: env.TEMPORAL_NAMESPACE,
    });
    stops.push(() => server.stop());
    temporalAddress = server.address;
    temporalUi = server.uiUrl;
  }

  let tiktokUrl = env.TIKTOK_API_URL;
  if (tiktokUrl === undefined) {
    await assertPortFree(env.FAKE_TIKTOK_PORT, 'fake TikTok', 'FAKE_TIKTOK_PORT or TIKTOK_API_URL');
    tiktokUrl = `http://${HOST}:${env.FAKE_TIKTOK_PORT}`;
    const fake = track(startNodeChild('tiktok', path.join(BUILD_ROOT, 'devstack/tiktok-fake/main.js'), childEnv({ PORT: String(env.FAKE_TIKTOK_PORT), HOST })));
    await waitForHttp(`${tiktokUrl}/_fake/events`, fake);
  }

  // Connect Shopify against the fake Shopify, unless a real app is configured; its shop's storefront renders the app's script tags.
  let shopifyEnv: Record<string, string> = {};
  let fakeShopify: { admin: string; storefront: string } | undefined;
  if (process.env.SHOPIFY_API_KEY === undefined) {
    await assertPortFree(env.FAKE_SHOPIFY_PORT, 'fake Shopify', 'FAKE_SHOPIFY_PORT, or SHOPIFY_API_KEY for a real app');
    await assertPortFree(env.FAKE_STOREFRONT_PORT, "fake Shopify's storefront", 'FAKE_STOREFRONT_PORT');
    const admin = await startFakeShopifyAdmin({ port: env.FAKE_SHOPIFY_PORT, complianceUri: `${env.PUBLIC_URL ?? `http://${HOST}:${env.PORT}`}${SHOPIFY_COMPLIANCE_PATH}` });
    stops.push(() => admin.close());
    const storefront = await startFakeStorefront({ port: env.FAKE_STOREFRONT_PORT, head: () => admin.storefrontScripts(FAKE_SHOP_DOMAIN) });
    stops.push(() => storefront.close());
    shopifyEnv = { SHOPIFY_API_KEY: FAKE_SHOPIFY_API_KEY, SHOPIFY_API_SECRET: FAKE_SHOPIFY_API_SECRET, SHOPIFY_SHOP_URL: admin.shopUrl };
    fakeShopify = { admin: admin.url, storefront: storefront.origin };
  }

  let smtpUrl = env.SMTP_URL;
  const outbox = path.join(dataDir, 'outbox');
  if (smtpUrl === undefined) {
    await assertPortFree(env.MAIL_SINK_PORT, 'mail outbox', 'MAIL_SINK_PORT or SMTP_URL');
    const sink = await startMailSink({
      port: env.MAIL_SINK_PORT,
      host: HOST,
      outboxDirectory: outbox,
      onMail: (mail, file) => log(`mail to ${mail.to.join(', ')}: "${mail.subject}" (${path.relative(process.cwd(), file ?? outbox)})`),
    });
    stops.push(() => sink.close());
    smtpUrl = sink.url;
  }

  const ingestUrl = `http://${HOST}:${env.PORT}`;
  // The worker's alerts and the API's pages link to the console under the same address.
  const shared = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: env.TEMPORAL_NAMESPACE,
    SECRET_KEY: state.secretKey,
    SMTP_URL: smtpUrl,
    ALERT_WEBHOOK_INTERNAL_ADDRESSES: env.ALERT_WEBHOOK_INTERNAL_ADDRESSES,
    PUBLIC_URL: env.PUBLIC_URL ?? ingestUrl,
  };
  await assertPortFree(env.WORKER_HEALTH_PORT, "worker's health server", 'WORKER_HEALTH_PORT');
  const workerHealthUrl = `http://${HOST}:${env.WORKER_HEALTH_PORT}`;
  const worker = track(
    startNodeChild(
      'worker',
      path.join(BUILD_ROOT, 'worker/main.js'),
      childEnv({ ...shared, TIKTOK_API_URL: tiktokUrl, WORKER_HEALTH_PORT: String(env.WORKER_HEALTH_PORT), WORKER_HEALTH_HOST: HOST }),
    ),
  );
  // Bundling the workflow code takes a while: the worker gets ready while ingest starts.
  const workerRunning = worker.waitForLine(new RegExp(`"msg":"${WORKER_RUNNING}"`), WORKER_START_TIMEOUT_MS);
  // Awaited once ingest answers; a worker that dies before then must not crash the stack as an unhandled rejection.
  workerRunning.catch(() => undefined);

  await assertPortFree(env.PORT, 'ingest API', 'PORT');
  const usingFake = env.TIKTOK_API_URL === undefined;
  const ingest = track(
    startNodeChild(
      'ingest',
      path.join(BUILD_ROOT, 'api/server.js'),
      childEnv({
        ...shared,
        PORT: String(env.PORT),
        HOST,
        ADMIN_TOKEN: state.adminToken,
        ...ingestTikTokEnv({ tiktokUrl, usingFake }),
        ...shopifyEnv,
        ...(temporalUi ? { TEMPORAL_UI_URL: temporalUi } : {}),
      }),
      INGEST_NODE_FLAGS,
    ),
  );
  await waitForHttp(`${ingestUrl}/healthz`, ingest);
  await workerRunning;
  const devSignIn = await ensureDevSignIn(ingestUrl, state);
  saveState(dataDir, { ...state, ingestUrl, devSignIn });
  const stackDb = createDatabase({ url: databaseUrl, poolMax: 1 });
  const passwordWorks = await devPasswordStillWorks(stackDb, devSignIn).finally(() => stackDb.destroy());
  stops.push(announce(dataDir, ingestUrl));

  console.log(`
Signalbox is running. Ctrl-C stops everything.

  Console                ${ingestUrl}/console/
                         ${devSignInText(devSignIn, passwordWorks)}
  Ingest + settings API  ${ingestUrl}   (admin token: ${state.adminToken})
  Worker                 ${workerHealthUrl}/readyz   metrics: ${workerHealthUrl}/metrics
  Temporal               ${temporalAddress}${temporalUi ? `   UI: ${temporalUi}` : ''}
  PostgreSQL             ${env.DATABASE_URL === undefined ? 'embedded' : 'DATABASE_URL'}
  TikTok API             ${tiktokUrl}${usingFake ? '   (local fake)' : ''}
  Shopify                ${fakeShopify === undefined ? 'SHOPIFY_API_KEY' : `${fakeShopify.admin}   (local fake; its shop ${FAKE_SHOP_DOMAIN}, storefront ${fakeShopify.storefront})`}
  Mail                   ${env.SMTP_URL === undefined ? `${smtpUrl}   outbox: ${path.relative(process.cwd(), outbox)}/ (each message as .txt and .eml, and a line here)` : 'SMTP_URL'}

Or without the console: create a workspace (the CLI reads the URL and admin token from ${path.relative(process.cwd(), path.join(dataDir, 'dev-stack.json'))}${cliFinds(dataDir)}):
  npm run signalbox -- workspaces create "My shop"
  npm run signalbox -- keys create <workspace-id> --name backend
  npm run signalbox -- rules put <workspace-id> purchase          # or your event's name: "Order Completed" (Segment) → CompletePayment too
  npm run signalbox -- rules suggest <workspace-id>               # event names received that no rule sends yet
  npm run signalbox -- users create you@example.com --owner <workspace-id>   # prints an invitation link to the console

Connect TikTok through OAuth${usingFake ? ' (the fake approves at once)' : process.env.TIKTOK_APP_ID === undefined ? ' (first set TIKTOK_APP_ID and TIKTOK_APP_SECRET of your Marketing API app)' : ''}:
  npm run signalbox -- tiktok connect <workspace-id>            # open the printed URL in a browser${usingFake ? ' (or: curl -sL "<url>")' : ''}
  npm run signalbox -- tiktok advertisers <workspace-id>        # then: tiktok advertiser <workspace-id> <advertiser-id>
  npm run signalbox -- tiktok pixels <workspace-id>             # then: tiktok pixel <workspace-id> <pixel-code>
  npm run signalbox -- tiktok status <workspace-id>             # statistics schedule, permissions, next step
  npm run signalbox -- tiktok pull <workspace-id>               # pull statistics now; then: reports <workspace-id> --from <YYYY-MM-DD> --to <YYYY-MM-DD>
or with a token from Events Manager:
  npm run signalbox -- tiktok set <workspace-id> --token ${usingFake ? FAKE_TIKTOK_ACCESS_TOKEN : '<access-token>'} --pixel ${usingFake ? FAKE_TIKTOK_PIXEL_CODE : '<pixel-code>'}
${fakeShopify === undefined ? '' : `
Connect Shopify (the console's Sources page, or):
  npm run signalbox -- shopify connect <workspace-id> --shop ${FAKE_SHOP_DOMAIN}   # open the printed URL, press "Install app"
  npm run signalbox -- settings set <workspace-id> --allowed-origins ${fakeShopify.storefront}   # so the storefront's tag may send
  curl -s ${fakeShopify.admin}/_fake/shops/${FAKE_SHOP_DOMAIN}                      # the webhooks and script Signalbox made
  curl -s -X POST ${fakeShopify.admin}/_fake/shops/${FAKE_SHOP_DOMAIN}/orders -d '{"ttclid":"E.C.P.test"}'   # an order, delivered
  curl -s -X POST ${fakeShopify.admin}/_fake/shops/${FAKE_SHOP_DOMAIN}/uninstall   # the owner removes the app
  curl -s -X POST ${fakeShopify.admin}/_fake/shops/${FAKE_SHOP_DOMAIN}/shop-redact # Shopify's shop/redact, 48 h after
`}`);
}

async function main(): Promise<void> {
  const env = loadEnv(devStackEnvSchema);
  const stops: (() => Promise<void>)[] = [];
  const children: Child[] = [];
  let stopping: Promise<void> | undefined;
  const stopAll = (code: number) => {
    stopping ??= (async () => {
      log('stopping...');
      for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`stop failed: ${String(error)}`));
      process.exit(code);
    })();
    return stopping;
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    await startStack(env, stops, children);
  } catch (error) {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
    await stopAll(1);
    return;
  }
  const died = await Promise.race(children.map(async (child) => ({ child, code: await child.exited })));
  if (stopping === undefined) {
    log(`${died.child.name} exited with code ${died.code}; stopping the stack`);
    await stopAll(1);
  }
}

void main();
