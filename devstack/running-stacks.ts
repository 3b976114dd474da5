import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Dev stacks running on this machine, one file per `npm start` process, so that the CLI can tell which stacks it
 * might be talking to (and refuse to guess between two). Kept under `$XDG_RUNTIME_DIR/signalbox`, else the temporary
 * directory, per user.
 */
export interface RunningStack {
  pid: number;
  /** Absolute path of the stack's SIGNALBOX_DATA_DIR. */
  dataDir: string;
  ingestUrl: string;
}

export function runningStacksDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'signalbox') : path.join(os.tmpdir(), `signalbox-${os.userInfo().uid}`);
  return path.join(base, 'stacks');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Announces this process's stack; returns how to withdraw the announcement when the stack stops. */
export function announceRunningStack(stack: Omit<RunningStack, 'pid'>, env: NodeJS.ProcessEnv): () => void {
  const dir = runningStacksDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${process.pid}.json`);
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, ...stack })}\n`, { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

/** The stacks whose `npm start` process is still alive; entries left by a killed process are ignored. */
export function listRunningStacks(env: NodeJS.ProcessEnv): RunningStack[] {
  const dir = runningStacksDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const stack = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as RunningStack;
      return typeof stack.pid === 'number' && typeof stack.dataDir === 'string' && typeof stack.ingestUrl === 'string' && alive(stack.pid) ? [stack] : [];
    } catch {
      return [];
    }
  });
}
