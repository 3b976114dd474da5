import { descendantsOf, isRunning, processEntry, signalAll, type ProcessEntry } from './process-tree';

/**
 * Run by jest's global setup as a process of its own, with jest's PID in `WATCHED_PID`: it notes every process
 * below jest each second, and when jest ends without its global teardown (killed, crashed, Ctrl-C) it kills the
 * processes noted last, so that no server of a test run outlives it. Processes spawned in its last second escape.
 */
const runner = processEntry(Number(process.env.WATCHED_PID));
const INTERVAL_MS = 1_000;

if (runner !== undefined) {
  let noted: ProcessEntry[] = [];
  const timer = setInterval(() => {
    if (isRunning(runner)) {
      noted = descendantsOf(runner.pid, (entry) => entry.pid !== process.pid);
      return;
    }
    clearInterval(timer);
    const killed = signalAll(noted, 'SIGKILL');
    if (killed.length > 0) console.error(`signalbox tests: jest (pid ${runner.pid}) ended; killed what it left running: ${killed.map((entry) => entry.command).join('; ')}`);
  }, INTERVAL_MS);
  process.once('SIGTERM', () => clearInterval(timer));
}
