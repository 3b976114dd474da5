import * as FakeTimers from '@sinonjs/fake-timers';

/*
 * Types: tsconfig maps the module to @types/sinonjs__fake-timers, because fake-timers 11 (the newest that runs on
 * Node 14) ships none and TypeScript would otherwise take those of the newer copy that jest hoists.
 */

/**
 * Fakes the timers the client uses (setTimeout and Date) and nothing else: setImmediate, process.nextTick and I/O
 * stay real, so gzip and promise chains run as they would.
 */
export function installFakeClock(): FakeTimers.InstalledClock {
  return FakeTimers.install({ now: Date.UTC(2024, 4, 1, 12, 0, 0), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}
