import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../cli/program';
import type { ImportReportView } from '../../contract/import-views';
import { createDatabase, migrateToLatest } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { INGEST_NODE_FLAGS, startNodeChild, stopChild, waitForHttp, type Child } from '../../devstack/children';
import { reservePort } from '../../devstack/ports';
import { importMessage } from '../../domain/imports/import-message';
import { checkImportRow } from '../../domain/imports/import-rows';
import { startBenchCluster } from '../ingest/cluster';
import { createSender } from '../ingest/http-client';
import { closedLoop } from '../ingest/load';
import { chunk } from '../ingest/workload';

/**
 * Issue 45's import: a 100,000-row CSV of past offline sales through `signalbox import` (the CLI, in this process,
 * 2,000 rows a request) against the API in its own process, beside its peer in the same run: the same rows as the
 * messages they become, sent to `/v1/batch` in batches of 100 by 8 senders (bench:ingest's batch run). Then the file
 * again, every row already imported. Each run has a workspace of its own in one database on a cluster of the
 * benchmark's own; with BENCH_IMPORT_RULE=1 the workspaces have a rule for the rows' event, so conversions are made
 * (and their wake-ups fail, no Temporal listening: the sweeper's job).
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = 100;
const CONCURRENCY = 8;
const WITH_RULE = process.env.BENCH_IMPORT_RULE === '1';
const BUILD_ROOT = path.join(__dirname, '..', '..');
const SECRET_KEY = randomBytes(32).toString('hex');
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const HOUR_MS = 3_600_000;

/** Sales of the last three days: distinct row keys and orders, 5,000 buyers by email, one in ten by phone too. */
function salesCsv(rows: number, now: number): string {
  const lines = ['row_key,occurred_at,order_id,value,currency,email,phone,store'];
  for (let i = 0; i < rows; i += 1) {
    const buyer = (i * 7919) % 5_000;
    const at = new Date(now - HOUR_MS - Math.floor((i / rows) * 71 * HOUR_MS)).toISOString();
    lines.push(`till-${i},${at},POS-${100_000 + i},${(12.5 + (i % 90)).toFixed(2)},EUR,buyer${buyer}@example.com,${i % 10 === 0 ? `+3361234${String(buyer).padStart(4, '0')}` : ''},store-${i % 12}`);
  }
  return `${lines.join('\n')}\n`;
}

async function prepare(url: string): Promise<{ importWorkspace: string; batchWorkspace: string; batchKey: string }> {
  const db = createDatabase({ url, poolMax: 1 });
  try {
    await migrateToLatest(db);
    const repos = createRepositories(db, createSecretBox(SECRET_KEY));
    const [importWorkspace, batchWorkspace] = [await repos.workspaces.create('Bench import'), await repos.workspaces.create('Bench batches')];
    if (WITH_RULE) {
      for (const workspace of [importWorkspace, batchWorkspace]) await repos.conversionRules.put(workspace.id, { sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
    }
    return { importWorkspace: importWorkspace.id, batchWorkspace: batchWorkspace.id, batchKey: (await repos.apiKeys.create(batchWorkspace.id, 'bench')).key };
  } finally {
    await db.destroy();
  }
}

async function startApi(databaseUrl: string): Promise<{ child: Child; url: string }> {
  const port = (await reservePort()).port;
  const child = startNodeChild('api', path.join(BUILD_ROOT, 'api', 'server.js'), {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_TOKEN,
    SECRET_KEY,
    TEMPORAL_ADDRESS: `127.0.0.1:${(await reservePort()).port}`,
    LOG_LEVEL: 'fatal',
  }, INGEST_NODE_FLAGS);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child);
  return { child, url };
}

async function cliImport(url: string, workspaceId: string, file: string): Promise<{ report: ImportReportView; seconds: number }> {
  const out: string[] = [];
  const started = performance.now();
  const code = await run(['--json', 'import', workspaceId, file, '--kind', 'offline-sales'], {
    out: (text) => out.push(text),
    err: (text) => console.error(text),
    env: { SIGNALBOX_URL: url, SIGNALBOX_ADMIN_TOKEN: ADMIN_TOKEN },
    cwd: process.cwd(),
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`signalbox import exited ${code}: ${out.join('\n').slice(0, 500)}`);
  return { report: JSON.parse(out.join('\n')) as ImportReportView, seconds };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  console.log(`Signalbox import benchmark: ${fmt(ROWS)} offline sales (CSV) by signalbox import, and as /v1/batch batches of ${BATCH} (${CONCURRENCY} senders)${WITH_RULE ? ', with a conversion rule' : ', no conversion rule'}`);
  const cluster = await startBenchCluster(false);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-bench-import-'));
  try {
    const now = Date.now();
    const csv = salesCsv(ROWS, now);
    const file = path.join(dir, 'sales.csv');
    writeFileSync(file, csv);
    const messages = csv
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => {
        const [row_key, occurred_at, order_id, value, currency, email, phone, store] = line.split(',');
        const check = checkImportRow('offline_sales', { row_key, occurred_at, order_id, value, currency, email, phone, store }, now);
        if (!check.ok) throw new Error(check.problems.join('; '));
        return importMessage('offline_sales', check.row);
      });

    const admin = createDatabase({ url: cluster.url('postgres'), poolMax: 1 });
    await admin.raw('CREATE DATABASE bench_import');
    await admin.destroy();
    const prepared = await prepare(cluster.url('bench_import'));
    const api = await startApi(cluster.url('bench_import'));
    try {
      const sender = createSender(api.url, prepared.batchKey, CONCURRENCY);
      const batches = await closedLoop(sender, '/v1/batch', chunk(messages, BATCH).map((batch) => ({ body: Buffer.from(JSON.stringify({ batch })), events: batch.length })), CONCURRENCY).finally(() => sender.close());
      if (batches.failed > 0) throw new Error(`${batches.failed} batches failed: ${JSON.stringify(batches.failures)}`);
      const first = await cliImport(api.url, prepared.importWorkspace, file);
      const again = await cliImport(api.url, prepared.importWorkspace, file);

      console.log(`\n${'run'.padEnd(52)} ${'rows'.padStart(8)} ${'stored'.padStart(8)} ${'seconds'.padStart(8)} ${'rows/s'.padStart(8)}`);
      const line = (name: string, rows: number, stored: number, seconds: number) => console.log(`${name.padEnd(52)} ${fmt(rows).padStart(8)} ${fmt(stored).padStart(8)} ${fmt(seconds, 1).padStart(8)} ${fmt(rows / seconds).padStart(8)}`);
      line(`/v1/batch, batches of ${BATCH}, ${CONCURRENCY} senders`, batches.events, batches.events, batches.seconds);
      line('signalbox import sales.csv', first.report.rows, first.report.stored, first.seconds);
      line('signalbox import sales.csv again (all imported)', again.report.rows, again.report.stored, again.seconds);
      console.log(`\nimport: ${fmt(first.report.conversions)} conversions made, ${fmt(first.report.refused)} refused; again: ${fmt(again.report.alreadyImported)} already imported, ${fmt(again.report.conversions)} conversions`);
      console.log(`import rate: ${fmt((first.report.rows / first.seconds / (batches.events / batches.seconds)) * 100, 1)}% of /v1/batch's (the file is ${fmt(csv.length / 1_048_576, 1)} MiB)`);
    } finally {
      await stopChild(api.child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
