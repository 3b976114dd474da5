import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { WORKER_RUNNING } from '../../worker/running';

/** The built worker (`node worker/main.js` of compileServerCode's folder), every line it prints kept for the test to read. */
export interface LoggedWorker {
  process: ChildProcess;
  /** stdout and stderr, line by line, in the order they came. */
  lines: string[];
  /** Resolves with the exit code and signal, once its output is read to the end. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first line, printed already or to come, that matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

export function spawnLoggedWorker(code: string, env: NodeJS.ProcessEnv): LoggedWorker {
  const child = spawn(process.execPath, [path.join(code, 'worker', 'main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (exitCode, signal) => resolve({ code: exitCode, signal })));
  const waitForLine = async (pattern: RegExp, timeoutMs = 180_000) => {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
      const line = lines.find((candidate) => pattern.test(candidate));
      if (line !== undefined) return line;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the worker exited (${child.exitCode ?? child.signalCode}):\n${lines.join('\n')}`);
    }
    throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`);
  };
  return { process: child, lines, exited, waitForLine };
}

/** Resolves once the worker polls its task queue. */
export const loggedWorkerRunning = (worker: LoggedWorker) => worker.waitForLine(new RegExp(`"msg":"${WORKER_RUNNING}"`));

/** SIGTERM, and how long the process took to exit after it. */
export async function stopAndTime(worker: LoggedWorker): Promise<{ code: number | null; afterMs: number }> {
  const sentAt = Date.now();
  worker.process.kill('SIGTERM');
  const { code } = await worker.exited;
  return { code, afterMs: Date.now() - sentAt };
}

/** For afterAll: SIGKILL a worker a failed test left running. */
export async function killIfRunning(worker: LoggedWorker | undefined): Promise<void> {
  if (worker === undefined || worker.process.exitCode !== null || worker.process.signalCode !== null) return;
  worker.process.kill('SIGKILL');
  await worker.exited;
}
