import { createStorageBudget, StorageDeadlineError } from './storage-deadline';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Work that finishes when the test says so, and remembers the signal it was given. */
function pendingWork<T>() {
  let finish!: (value: T) => void;
  let signal!: AbortSignal;
  const work = (given: AbortSignal) => {
    signal = given;
    return new Promise<T>((resolve) => {
      finish = resolve;
    });
  };
  return { work, finish: (value: T) => finish(value), signal: () => signal };
}

describe('createStorageBudget: one deadline for all of a request’s storage work', () => {
  it('gives the work’s result when it finishes in time', async () => {
    const budget = createStorageBudget(5_000, Date.now);
    const { work, finish, signal } = pendingWork<string>();
    const running = budget.run(work);
    jest.advanceTimersByTime(4_999);
    finish('committed');
    await expect(running).resolves.toBe('committed');
    expect(signal().aborted).toBe(false);
  });

  it('rejects with StorageDeadlineError at the deadline and aborts the work’s signal with it', async () => {
    const budget = createStorageBudget(5_000, Date.now);
    const { work, finish, signal } = pendingWork<string>();
    const running = budget.run(work);
    jest.advanceTimersByTime(5_000);
    await expect(running).rejects.toThrow(new StorageDeadlineError(5_000));
    expect(signal().reason).toBeInstanceOf(StorageDeadlineError);
    // The work finishing later changes nothing for the answer already given.
    finish('late');
    await expect(running).rejects.toBeInstanceOf(StorageDeadlineError);
  });

  it('counts the time of every piece of work against the one deadline, and not the time between them', async () => {
    const budget = createStorageBudget(5_000, Date.now);
    const lookup = pendingWork<string>();
    const looking = budget.run(lookup.work);
    jest.advanceTimersByTime(3_000);
    lookup.finish('key');
    await looking;
    jest.advanceTimersByTime(60_000); // a slow client's body: not storage work

    const commit = pendingWork<string>();
    const committing = budget.run(commit.work);
    jest.advanceTimersByTime(2_000);
    await expect(committing).rejects.toBeInstanceOf(StorageDeadlineError);
    await expect(budget.run(async () => 'more')).rejects.toBeInstanceOf(StorageDeadlineError);
  });

  it('names the setting and its value in the message', () => {
    expect(new StorageDeadlineError(5_000).message).toBe('the database did not finish storing this request within INGEST_STORAGE_DEADLINE_MS (5000 ms)');
  });
});
