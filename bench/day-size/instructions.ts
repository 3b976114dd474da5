import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { reservePort } from '../../devstack/ports';
import { createDatabase } from '../../db/knex';
import { createIngestWriteRepository, type NewEvent } from '../../db/repositories/ingest-writes';
import { chunk } from '../ingest/workload';
import { BATCH, dayCases, prepareStore, toNewEvents, WORKSPACE_ID } from './stores';

/**
 * The day after an upgrade (issue 48), counted in instructions rather than timed: on a shared machine a rate moves by
 * a factor of two from one round to the next, an instruction count does not. The stores of `run.ts`'s upgrade cases,
 * and a store created with days whose yesterday is full, are made on a private PostgreSQL cluster; the cluster is then
 * restarted under Valgrind's callgrind, which counts the instructions each backend runs. Each case stores K1 and then
 * K2 batches of 100 through ingest's own statement (`storeUnmapped`), each on a new connection, so the difference
 * divided by the events between them is the backend's instructions per stored event, with the connection's start and
 * its first plans taken out. User-space only: a read from the OS page cache, WAL's fsync are not counted; each case
 * also prints the buffers it read from outside shared_buffers per event, which is what a count misses.
 *
 *   npm run bench:day-size:instructions   # BENCH_DAY_SIZE_EVENTS (300000), BENCH_DAY_SIZE_BATCHES (10,60),
 *                                         # BENCH_DAY_SIZE_REPEATS (2); needs valgrind and PostgreSQL's server binaries
 */
const DAY_EVENTS = Number(process.env.BENCH_DAY_SIZE_EVENTS ?? 300_000);
const [K1, K2] = (process.env.BENCH_DAY_SIZE_BATCHES ?? '10,60').split(',').map(Number) as [number, number];
const REPEATS = Number(process.env.BENCH_DAY_SIZE_REPEATS ?? 2);
const BASELINE = 'upgraded the day before, yesterday empty';
const CASES = dayCases(DAY_EVENTS).filter((c) => c.group === 'upgrade' || c.label === 'yesterday full, today empty');

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** PostgreSQL's server binaries: the newest major version Debian installed. */
function serverBin(): string {
  const root = '/usr/lib/postgresql';
  const major = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  if (major === undefined) throw new Error(`no PostgreSQL server under ${root}`);
  return path.join(root, major, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its processes run as the `postgres` user. */
const asServerUser = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];

class PrivateCluster {
  private server: ChildProcess | undefined;
  readonly profiles: string;

  constructor(
    private readonly dir: string,
    readonly port: number,
  ) {
    this.profiles = path.join(dir, 'callgrind');
  }

  get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<PrivateCluster> {
    const dir = mkdtempSync(path.join(tmpdir(), 'signalbox-instructions-'));
    const reserved = await reservePort();
    reserved.release();
    const cluster = new PrivateCluster(dir, reserved.port);
    mkdirSync(cluster.profiles);
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres', dir]);
    const [command, args] = asServerUser(path.join(serverBin(), 'initdb'), ['-D', cluster.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
    execFileSync(command, args, { stdio: 'ignore' });
    return cluster;
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  /** Starts the server, under callgrind when `counting` (each backend writes `callgrind/out.<pid>` when it ends). */
  async start(counting: boolean): Promise<void> {
    // Without autovacuum while counting: it would read blocks the cases are charged for (the stores are vacuumed when made).
    const postgres = [path.join(serverBin(), 'postgres'), '-D', this.dataDir, '-p', String(this.port), '-k', this.dir, '-c', 'listen_addresses=127.0.0.1', '-c', `autovacuum=${counting ? 'off' : 'on'}`];
    const argv = counting ? ['valgrind', '--tool=callgrind', `--callgrind-out-file=${this.profiles}/out.%p`, ...postgres] : postgres;
    const [command, args] = asServerUser(argv[0] as string, argv.slice(1));
    this.server = spawn(command, args, { stdio: 'ignore' });
    for (let waited = 0; waited < 120_000; waited += 500) {
      const [command, args] = asServerUser(path.join(serverBin(), 'pg_isready'), ['-h', '127.0.0.1', '-p', String(this.port), '-q']);
      if (spawnSync(command, args).status === 0) return;
      await sleep(500);
    }
    throw new Error('the private PostgreSQL cluster did not start within 2 minutes');
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const [command, args] = asServerUser(path.join(serverBin(), 'pg_ctl'), ['stop', '-D', this.dataDir, '-m', 'fast', '-w']);
    execFileSync(command, args, { stdio: 'ignore' });
    await exited;
  }

  /** The instructions a backend ran, once it has ended and callgrind has written its profile. */
  async instructionsOf(pid: number): Promise<number> {
    const file = path.join(this.profiles, `out.${pid}`);
    for (let waited = 0; waited < 60_000; waited += 200) {
      const totals = existsSync(file) ? /^totals: (\d+)/m.exec(readFileSync(file, 'utf8')) : null;
      if (totals !== null) return Number(totals[1]);
      await sleep(200);
    }
    throw new Error(`no callgrind profile for backend ${pid}`);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Counted {
  instructions: number;
  /** Blocks read from outside shared_buffers by the database, during the batches. */
  blocksRead: number;
}

/** `batches` of ingest's statement on a new connection to the store, and the instructions of that connection's backend. */
async function countBatches(cluster: PrivateCluster, url: string, batches: NewEvent[][]): Promise<Counted> {
  const db = createDatabase({ url, poolMax: 1 });
  const blocksRead = async () => {
    const { rows } = await db.raw<{ rows: { read: string }[] }>('SELECT blks_read AS read FROM pg_stat_database WHERE datname = current_database()');
    return Number(rows[0]?.read);
  };
  let pid: number;
  let read: number;
  try {
    const { rows } = await db.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
    pid = (rows[0] as { pid: number }).pid;
    await db.raw('SET stats_fetch_consistency = none');
    const readBefore = await blocksRead();
    const writes = createIngestWriteRepository(db);
    for (const batch of batches) await writes.storeUnmapped(WORKSPACE_ID, batch, { sightings: [], links: [] }, []);
    await db.raw('SELECT pg_stat_force_next_flush()');
    read = (await blocksRead()) - readBefore;
  } finally {
    await db.destroy();
  }
  return { instructions: await cluster.instructionsOf(pid), blocksRead: read };
}

async function main(): Promise<void> {
  console.log(
    `Signalbox day-size benchmark in instructions: ingest's statement, batches of ${BATCH} on one connection, ${K2 - K1} batches counted (${K2} less ${K1}), ` +
      `${REPEATS} repeat(s) a case, days holding 0 or ${fmt(DAY_EVENTS)} events`,
  );
  const cluster = await PrivateCluster.create();
  try {
    await cluster.start(false);
    const stores: { label: string; url: string }[] = [];
    for (const c of CASES) {
      const store = await prepareStore(cluster.adminUrl, c);
      stores.push({ label: c.label, url: store.url });
      await store.db.destroy();
    }
    await cluster.stop();
    await cluster.start(true);
    const perEvent = new Map<string, { instructions: number[]; blocksRead: number[] }>();
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const { label, url } of stores) {
        const few = await countBatches(cluster, url, chunk(toNewEvents(K1 * BATCH), BATCH));
        const many = await countBatches(cluster, url, chunk(toNewEvents(K2 * BATCH), BATCH));
        const events = (K2 - K1) * BATCH;
        const measured = perEvent.get(label) ?? { instructions: [], blocksRead: [] };
        measured.instructions.push((many.instructions - few.instructions) / events);
        measured.blocksRead.push((many.blocksRead - few.blocksRead) / events);
        perEvent.set(label, measured);
      }
    }
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const baseline = mean(perEvent.get(BASELINE)?.instructions ?? []);
    console.log('\n| store | instructions per stored event, each repeat | blocks read from outside shared_buffers per event | rate against the first, if bound by these instructions |');
    console.log('|---|---:|---:|---:|');
    for (const { label } of stores) {
      const { instructions, blocksRead } = perEvent.get(label) as { instructions: number[]; blocksRead: number[] };
      console.log(`| ${label} | ${instructions.map((n) => fmt(n)).join(', ')} | ${blocksRead.map((n) => fmt(n, 3)).join(', ')} | ${fmt((baseline / mean(instructions)) * 100, 1)}% |`);
    }
  } finally {
    await cluster.stop();
    cluster.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
