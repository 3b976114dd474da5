import { endJestIfStuck } from './end-if-stuck';
import { stopLeftoverProcesses } from './leftovers';

export type Stop = () => Promise<void>;

interface TestRun {
  /** Run in reverse order by the teardown. */
  stops: Stop[];
  reaper: { pid: number; stop(): void };
}

const STOP_TIMEOUT_MS = 30_000;

// Global setup and teardown are separate modules that share only the process's globals.
const holder = globalThis as { __signalboxTestRun?: TestRun };

export function setTestRun(run: TestRun): void {
  holder.__signalboxTestRun = run;
}

async function withDeadline(stop: Stop): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`a service did not stop within ${STOP_TIMEOUT_MS} ms`)), STOP_TIMEOUT_MS);
  });
  try {
    await Promise.race([stop(), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends an integration run, whatever its tests left behind: stops the shared services (each one even when another
 * fails), stops every process a test left running, and, should an open handle (a server, a timer, a pool) still keep
 * jest up after that, ends the process so that a run never hangs; jest's exit code stands.
 */
export async function tearDownTestRun(): Promise<void> {
  const run = holder.__signalboxTestRun;
  if (run === undefined) return;
  holder.__signalboxTestRun = undefined;
  const failures: unknown[] = [];
  for (const stop of [...run.stops].reverse()) await withDeadline(stop).catch((error: unknown) => failures.push(error));

  const leftovers = await stopLeftoverProcesses([run.reaper.pid]);
  if (leftovers.length > 0) console.error(`Processes left running by tests, now stopped:\n  ${leftovers.join('\n  ')}`);
  run.reaper.stop();

  endJestIfStuck();
  if (failures.length > 0) throw new AggregateError(failures, `the test run's services did not all stop: ${failures.map(String).join('; ')}`);
}
