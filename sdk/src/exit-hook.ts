/**
 * One `beforeExit` listener for every client in the process (also across this package's CommonJS and ES module
 * copies, through a global symbol), installed while some client has events to send and removed when none has.
 * A client is held here only while it is busy, so an idle client that was never closed can be garbage-collected.
 */
interface ExitHook {
  busy: Set<() => void>;
  listener: () => void;
}

const HOOK = Symbol.for('@signalbox/api exit hook v1');

function exitHook(): ExitHook {
  const global = globalThis as unknown as Record<symbol, ExitHook | undefined>;
  let hook = global[HOOK];
  if (hook === undefined) {
    const busy = new Set<() => void>();
    hook = { busy, listener: () => busy.forEach((flush) => flush()) };
    global[HOOK] = hook;
  }
  return hook;
}

/** `flush` runs when the event loop empties before exit, from `markBusy()` until `markIdle()`. */
export function flushBeforeExit(flush: () => void): { markBusy(): void; markIdle(): void } {
  return {
    markBusy() {
      const hook = exitHook();
      if (hook.busy.size === 0) process.on('beforeExit', hook.listener);
      hook.busy.add(flush);
    },
    markIdle() {
      const hook = exitHook();
      if (hook.busy.delete(flush) && hook.busy.size === 0) process.removeListener('beforeExit', hook.listener);
    },
  };
}
