import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import { migrateToLatest } from '../../db/knex';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { INGEST_NODE_FLAGS, startNodeChild, stopChild, waitForHttp } from '../../devstack/children';
import { reservePort } from '../../devstack/ports';
import { cpuSnapshot, type CpuSnapshot } from '../pipeline/cpu';
import type { Infrastructure } from '../pipeline/infrastructure';
import { scratchDatabase } from '../retention/store';

/** A store that ingest sends batches to, with what measures their cost: its database and its processes' CPU. */
export interface IngestTarget {
  db: Knex;
  ingestUrl: string;
  key: string;
  /** CPU so far of the target's ingest process (part `ingest`) and of PostgreSQL. */
  cpu(): CpuSnapshot;
}

/**
 * An empty store beside the grown one: a freshly migrated database on the same PostgreSQL with an ingest process of
 * the same build. Its rounds of batches alternate with the grown store's, so the two are compared on the same machine
 * in the same minutes; the empty store measured at the start of a run is an hour and a load of 40 GB away from the
 * largest size, and its rate moved by 15% from run to run on an idle machine (BENCHMARKS.md).
 */
export async function startEmptyStore(infra: Infrastructure): Promise<IngestTarget & { stop(): Promise<void> }> {
  const scratch = await scratchDatabase(infra.adminUrl, 'growth_empty');
  try {
    await migrateToLatest(scratch.db);
    const repos = createRepositories(scratch.db, createSecretBox(infra.secretKey));
    const workspace = await repos.workspaces.create('Growth hot shop (empty store)');
    const { key } = await repos.apiKeys.create(workspace.id, 'growth bench, empty store');
    const port = await reservePort();
    const ingestUrl = `http://127.0.0.1:${port.port}`;
    const ingest = startNodeChild('ingest (empty store)', path.join(__dirname, '..', '..', 'api', 'server.js'), {
      ...process.env,
      DATABASE_URL: scratch.url,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      SECRET_KEY: infra.secretKey,
      LOG_LEVEL: 'warn',
      PORT: String(port.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: ingestUrl,
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
    }, INGEST_NODE_FLAGS);
    await waitForHttp(`${ingestUrl}/healthz`, ingest);
    return {
      db: scratch.db,
      ingestUrl,
      key,
      cpu: () => cpuSnapshot({ ingest: ingest.process.pid }),
      async stop() {
        await stopChild(ingest);
        port.release();
        await scratch.drop();
      },
    };
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}
