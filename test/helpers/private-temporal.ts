import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../devstack/ports';
import { locateTemporalCli } from '../../devstack/temporal-cli';
import { devServerArgs, waitUntilServing } from '../../devstack/temporal-dev-server';

export interface PrivateTemporal {
  address: string;
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
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const args = devServerArgs({ cli, ip: '127.0.0.1', port, dbFile: path.join(dir, 'temporal.db'), namespace: 'default' });

  let server: ChildProcess;
  const killOnExit = () => server.kill('SIGKILL');
  process.on('exit', killOnExit);
  async function launch(): Promise<void> {
    server = spawn(binary, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    await waitUntilServing(address, server, 60_000);
  }
  await launch();
  return {
    address,
    async kill() {
      server.kill('SIGKILL');
      await exitOf(server);
    },
    restart: launch,
    async stop() {
      server.kill('SIGTERM');
      await exitOf(server);
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
