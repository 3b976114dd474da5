import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../devstack/embedded-postgres';
import { reservePort } from '../../devstack/ports';
import { locateTemporalCli, type TemporalCli } from '../../devstack/temporal-cli';
import { startTemporalDevServer, type RunningDevServer } from '../../devstack/temporal-dev-server';
import { startOrphanReaper } from './leftovers';
import { setTestRun, tearDownTestRun, type Stop } from './test-run';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The server listens on ports of its own choosing for its internal services besides the three given, and fails to
 * start when one is taken meanwhile: then it is tried again on new ports.
 */
async function startTemporal(cli: TemporalCli, stops: Stop[]): Promise<RunningDevServer> {
  for (let attempt = 1; ; attempt += 1) {
    const ports = await Promise.all([reservePort(), reservePort(), reservePort()]);
    const release = async () => ports.forEach((reserved) => reserved.release());
    const [port, httpPort, metricsPort] = ports.map((reserved) => reserved.port) as [number, number, number];
    try {
      const server = await startTemporalDevServer({ cli, ip: '127.0.0.1', port, httpPort, metricsPort, namespace: 'default' });
      stops.push(release, () => server.stop());
      return server;
    } catch (error) {
      await release();
      if (attempt === 3) throw error;
      console.log(`The Temporal dev server did not start (${(error as Error).message}); trying again on other ports`);
    }
  }
}

async function startServices(stops: Stop[]): Promise<void> {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  if (await reachable(databaseUrl)) {
    process.env.TEST_DATABASE_URL = databaseUrl;
  } else {
    // A folder below the scratch one: run as root, the cluster's parent folder is opened to the `postgres` user.
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'signalbox-test-pg-'));
    const reserved = await reservePort();
    stops.push(async () => rmSync(scratch, { recursive: true, force: true }), async () => reserved.release());
    const postgres = await startEmbeddedPostgres(path.join(scratch, 'data'), reserved.port);
    process.env.TEST_DATABASE_URL = postgres.url;
    stops.push(() => postgres.stop());
  }

  if (process.env.TEMPORAL_TEST_ADDRESS === undefined) {
    const cli = await locateTemporalCli({
      explicitPath: process.env.TEMPORAL_CLI_PATH,
      projectToolsDir: path.join(__dirname, '..', '..', '.tools', 'bin'),
      allowBuild: true,
      allowSdkDownload: true,
      log: (line) => console.log(line),
    });
    const server = await startTemporal(cli, stops);
    process.env.TEMPORAL_TEST_ADDRESS = server.address;
  }
}

/** One PostgreSQL and one Temporal dev server for the whole integration run; each test file gets its own database. */
export default async function globalSetup(): Promise<void> {
  const stops: Stop[] = [];
  setTestRun({ stops, reaper: await startOrphanReaper() });
  // Jest runs no global teardown after a global setup that failed.
  await startServices(stops).catch(async (error: unknown) => {
    await tearDownTestRun();
    throw error;
  });
}
