import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';
import { assertListensOn } from './port-owner';
import type { TemporalCli } from './temporal-cli';

export interface DevServerOptions {
  cli: TemporalCli;
  ip: string;
  port: number;
  /** Serve the Temporal UI on this port; omit for a headless server. */
  uiPort?: number;
  /** The HTTP API and `/metrics` ports; omitted, the server picks free ones itself. */
  httpPort?: number;
  metricsPort?: number;
  /** Keep history in this SQLite file across restarts; omit for an in-memory server. */
  dbFile?: string;
  namespace: string;
  readyTimeoutMs?: number;
}

export interface RunningDevServer {
  address: string;
  uiUrl?: string;
  stop(): Promise<void>;
}

export function devServerArgs(options: DevServerOptions): string[] {
  const args = ['server', 'start-dev', '--ip', options.ip, '--port', String(options.port), '--namespace', options.namespace];
  args.push(...(options.uiPort === undefined ? ['--headless'] : ['--ui-port', String(options.uiPort)]));
  if (options.httpPort !== undefined) args.push('--http-port', String(options.httpPort));
  if (options.metricsPort !== undefined) args.push('--metrics-port', String(options.metricsPort));
  if (options.dbFile !== undefined) {
    args.push('--db-filename', options.dbFile, '--sqlite-pragma', 'journal_mode=WAL', '--sqlite-pragma', 'synchronous=OFF');
  }
  for (const attribute of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${attribute.name}=Keyword`);
  args.push('--dynamic-config-value', 'frontend.enableServerVersionCheck=false', '--log-level', 'error');
  return args;
}

/** Resolves once the server `child` accepts connections at `address`; rejects when another program answers there. */
export async function waitUntilServing(address: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Temporal dev server exited with code ${child.exitCode} before it was ready`);
    const refused = await Connection.connect({ address, connectTimeout: 1000 }).then(
      (connection) => connection.close().then(() => undefined),
      (error: unknown) => error,
    );
    if (refused === undefined) return assertListensOn(child.pid, Number(address.slice(address.lastIndexOf(':') + 1)), 'the Temporal dev server');
    if (Date.now() > deadline) throw new Error(`Temporal dev server at ${address} not ready after ${timeoutMs} ms: ${String(refused)}`);
    await sleep(250);
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts `temporal server start-dev` (or the SDK-downloaded equivalent) and resolves once it accepts connections. */
export async function startTemporalDevServer(options: DevServerOptions): Promise<RunningDevServer> {
  const address = `${options.ip}:${options.port}`;
  const uiUrl = options.uiPort === undefined ? undefined : `http://${options.ip}:${options.uiPort}`;
  if (options.cli.kind === 'sdk-download') {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        ip: options.ip,
        port: options.port,
        ui: options.uiPort !== undefined,
        uiPort: options.uiPort,
        dbFilename: options.dbFile,
        namespace: options.namespace,
        searchAttributes: [...SEARCH_ATTRIBUTES],
      },
    });
    return { address, uiUrl, stop: () => env.teardown() };
  }

  // Its own process group: Ctrl-C reaches only the dev stack, which stops the server after the processes using it.
  const child = spawn(options.cli.path, devServerArgs(options), { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  try {
    await waitUntilServing(address, child, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { address, uiUrl, stop: () => stopChild(child) };
}
