/**
 * The promise of one call (`track()` and friends) that may reject. A caller who awaits it, or attaches `then`,
 * `catch` or `finally`, gets the rejection; one who does not is not punished with an unhandled rejection (fatal from
 * Node 15 on): `onUnobserved` hears of it instead, a turn of the event loop later.
 */
class CallPromise extends Promise<void> {
  // Derived promises (from then/catch) are plain ones.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  observed = false;

  override then<A = void, B = never>(
    onFulfilled?: ((value: void) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.observed = true;
    return super.then(onFulfilled, onRejected);
  }
}

export interface PendingCall {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

/** A call's promise, settled later, e.g. once a full queue has room. */
export function pendingCall(onUnobserved: (error: Error) => void): PendingCall {
  let settle!: { resolve: () => void; reject: (error: Error) => void };
  const promise = new CallPromise((resolve, reject) => (settle = { resolve, reject }));
  // Handled from the start, without marking it observed: the runtime never reports it as unhandled.
  void Promise.prototype.then.call(promise, undefined, () => undefined);
  return {
    promise,
    resolve: () => settle.resolve(),
    reject: (error) => {
      settle.reject(error);
      setImmediate(() => {
        if (!promise.observed) onUnobserved(error);
      });
    },
  };
}

/** A call's promise, rejected now. */
export function rejectedCall(error: Error, onUnobserved: (error: Error) => void): Promise<void> {
  const call = pendingCall(onUnobserved);
  call.reject(error);
  return call.promise;
}
