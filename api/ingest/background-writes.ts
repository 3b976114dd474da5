/**
 * Writes made after the answer (the event debugger's refusals, a browser key's last use): never awaited by a request,
 * but awaited on close, so that closing the app does not close the database under them.
 */
export function createBackgroundWrites() {
  const inFlight = new Set<Promise<void>>();
  return {
    /** Keeps `write` (which must not reject) until it settles. */
    track(write: Promise<void>): void {
      inFlight.add(write);
      void write.finally(() => inFlight.delete(write));
    },

    async drain(): Promise<void> {
      await Promise.all([...inFlight]);
    },
  };
}
