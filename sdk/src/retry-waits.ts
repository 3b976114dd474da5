/**
 * Waits between delivery attempts. They are unref'd so an idle client never holds a process open; but while a
 * flush() or close() is awaited, or the process is about to exit, a batch waiting to be retried must hold it open,
 * or it would be lost. `hold()` refs the pending waits (and later ones) until released.
 */
export class RetryWaits {
  private readonly pending = new Set<NodeJS.Timeout>();
  private holders = 0;

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      if (this.holders === 0) timer.unref();
      this.pending.add(timer);
    });
  }

  /** Keeps the process alive through retry waits until the returned function is called. */
  hold(): () => void {
    this.holders += 1;
    for (const timer of this.pending) timer.ref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      if (this.holders === 0) for (const timer of this.pending) timer.unref();
    };
  }
}
