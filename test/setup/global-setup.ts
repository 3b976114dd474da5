import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../devstack/embedded-postgres';
import { freePort } from '../../devstack/ports';
import { locateTemporalCli } from '../../devstack/temporal-cli';
import { startTemporalDevServer } from '../../devstack/temporal-dev-server';

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

/** One PostgreSQL and one Temporal dev server for the whole integration run; each test file gets its own database. */
export default async function globalSetup(): Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  if (await reachable(databaseUrl)) {
    process.env.TEST_DATABASE_URL = databaseUrl;
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-test-pg-'));
    const postgres = await startEmbeddedPostgres(dataDir, await freePort());
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
    const server = await startTemporalDevServer({ cli, ip: '127.0.0.1', port: await freePort(), namespace: 'default' });
    process.env.TEMPORAL_TEST_ADDRESS = server.address;
    stops.push(() => server.stop());
  }
  (globalThis as { __signalboxTestStops?: typeof stops }).__signalboxTestStops = stops;
}
