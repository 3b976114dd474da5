/**
 * Waits between delivery attempts. They are unref'd so an idle client never holds a process open; but while a
 * flush() or close() is awaited, or the process is about to exit, a batch waiting to be retried must hold it open,
 * or it would be lost. `hold()` refs the pending waits (and later ones) until released. `abandon()` ends every wait
 * at once, for good (close's deadline).
 */
export class RetryWaits {
  private readonly pending = new Map<NodeJS.Timeout, (waited: boolean) => void>();
  private holders = 0;
  private abandoned = false;

  /** Resolves with true after `ms`, or with false once abandoned. */
  wait(ms: number): Promise<boolean> {
    if (this.abandoned) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve(true);
      }, ms);
      if (this.holders === 0) timer.unref();
      this.pending.set(timer, resolve);
    });
  }

  /** Keeps the process alive through retry waits until the returned function is called. */
  hold(): () => void {
    this.holders += 1;
    for (const timer of this.pending.keys()) timer.ref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      if (this.holders === 0) for (const timer of this.pending.keys()) timer.unref();
    };
  }

  abandon(): void {
    this.abandoned = true;
    for (const [timer, resolve] of this.pending) {
      clearTimeout(timer);
      resolve(false);
    }
    this.pending.clear();
  }
}

/**
 * The client-wide pause after a 429: every batch, new or retried, waits until the ingest API said it may send again,
 * so a rate-limited client does not keep hammering it with its other batches.
 */
export class RateLimitPause {
  private until = 0;

  pauseFor(ms: number): void {
    this.until = Math.max(this.until, Date.now() + ms);
  }

  /** Resolves with true once sending may go on, or with false if the waits were abandoned meanwhile. */
  async over(waits: RetryWaits): Promise<boolean> {
    while (Date.now() < this.until) {
      if (!(await waits.wait(this.until - Date.now()))) return false;
    }
    return true;
  }
}
