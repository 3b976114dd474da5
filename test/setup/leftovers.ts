import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'esbuild';
import { descendantsOf, isRunning, signalAll, type ProcessEntry } from './process-tree';

/** Starts orphan-reaper.ts beside this process; returns how to stop it. */
export async function startOrphanReaper(): Promise<{ pid: number; stop(): void }> {
  const bundled = await build({ entryPoints: [path.join(__dirname, 'orphan-reaper.ts')], bundle: true, platform: 'node', target: 'node20', write: false, logLevel: 'error' });
  const code = bundled.outputFiles[0]?.text as string;
  // Detached: Ctrl-C reaches jest's process group, not the process that must clean up after it.
  const reaper = spawn(process.execPath, ['-e', code], { env: { WATCHED_PID: String(process.pid) }, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  reaper.unref();
  return { pid: reaper.pid as number, stop: () => reaper.kill('SIGTERM') };
}

/**
 * Stops every process a test left running below this one (its afterAll failed or never ran): SIGTERM, then SIGKILL
 * for those still running after `graceMs`. Returns their command lines.
 */
export async function stopLeftoverProcesses(spare: readonly number[], graceMs = 5_000): Promise<string[]> {
  // A jest worker is jest's own, what runs below it a test's; esbuild's service (tests build code with it) holds nothing.
  const ours = (entry: ProcessEntry) => spare.includes(entry.pid) || entry.command.includes('jest-worker') || / --service=\S+ --ping$/.test(entry.command);
  const leftovers = descendantsOf(process.pid, (entry) => !ours(entry));
  const signalled = signalAll(leftovers, 'SIGTERM');
  for (const deadline = Date.now() + graceMs; signalled.some(isRunning) && Date.now() < deadline; ) await sleep(100);
  signalAll(signalled, 'SIGKILL');
  return signalled.map((entry) => entry.command);
}
