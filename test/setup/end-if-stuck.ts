import { setTimeout as sleep } from 'node:timers/promises';

/** How long jest may stay up after its run before it is ended. */
const EXIT_GRACE_MS = 10_000;

/**
 * For a global teardown: should an open handle a test left (a server, a timer, a pool) keep jest up after the run,
 * ends the process so that a run never hangs; jest has set its exit code by then, and it stands.
 */
export function endJestIfStuck(): void {
  void sleep(EXIT_GRACE_MS, undefined, { ref: false }).then(() => {
    console.error(`jest was still up ${EXIT_GRACE_MS / 1000} s after the run, kept by open handles (${process.getActiveResourcesInfo().join(', ')}): ending it`);
    process.exit();
  });
}
