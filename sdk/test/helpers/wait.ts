/** Lets pending I/O callbacks (gzip, sockets) and promise reactions run; not affected by fake timers. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits, turn by turn of the event loop, until `condition` holds; fails naming `what` after 10 s of real time
 * (measured with hrtime, which fake timers leave alone).
 */
export async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = process.hrtime.bigint() + BigInt(10_000_000_000);
  while (!condition()) {
    if (process.hrtime.bigint() > deadline) throw new Error(`gave up waiting for ${what}`);
    await nextTurn();
  }
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}
