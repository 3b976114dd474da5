import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reservePort } from '../../devstack/ports';
import { locateTemporalCli } from '../../devstack/temporal-cli';
import { devServerArgs, waitUntilServing } from '../../devstack/temporal-dev-server';

export interface PrivateTemporal {
  address: string;
  /** The running server's process; changes with each restart. */
  pid(): number;
  /** kill -9 of the server; its history stays in its SQLite file. */
  kill(): Promise<void>;
  /** Starts the server again on the same file and port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A Temporal dev server of the test's own, keeping history in a file, for faults that must never reach the shared one. */
export async function startPrivateTemporal(): Promise<PrivateTemporal> {
  const cli = await locateTemporalCli({
    explicitPath: process.env.TEMPORAL_CLI_PATH,
    projectToolsDir: path.join(__dirname, '..', '..', '.tools', 'bin'),
    allowBuild: false,
    allowSdkDownload: false,
    log: () => undefined,
  });
  if (cli.kind !== 'binary') throw new Error('a private Temporal server needs the Temporal CLI');
  const binary = cli.path;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-private-temporal-'));
  // Kept for the whole file: a restart must come back on the address the processes under test were given.
  const ports = await Promise.all([reservePort(), reservePort(), reservePort()]);
  const [port, httpPort, metricsPort] = ports.map((reserved) => reserved.port) as [number, number, number];
  const address = `127.0.0.1:${port}`;
  const args = devServerArgs({ cli, ip: '127.0.0.1', port, httpPort, metricsPort, dbFile: path.join(dir, 'temporal.db'), namespace: 'default' });

  let server: ChildProcess;
  const killOnExit = () => server.kill('SIGKILL');
  process.on('exit', killOnExit);
  async function launch(): Promise<void> {
    // The server also listens on ports of its choosing for its internal services; one taken meanwhile fails the start,
    // and once (a full suite on two cores) a restart after kill -9 hung without serving for a minute: both start again.
    for (let attempt = 1; ; attempt += 1) {
      server = spawn(binary, args, { stdio: ['ignore', 'ignore', 'inherit'] });
      try {
        return await waitUntilServing(address, server, 60_000);
      } catch (error) {
        server.kill('SIGKILL');
        await exitOf(server);
        if (attempt === 3) throw error;
      }
    }
  }
  const cleanUp = () => {
    process.off('exit', killOnExit);
    for (const reserved of ports) reserved.release();
    rmSync(dir, { recursive: true, force: true });
  };
  await launch().catch((error: unknown) => {
    cleanUp();
    throw error;
  });
  return {
    address,
    pid: () => server.pid as number,
    async kill() {
      server.kill('SIGKILL');
      await exitOf(server);
    },
    restart: launch,
    async stop() {
      server.kill('SIGTERM');
      await exitOf(server);
      cleanUp();
    },
  };
}
