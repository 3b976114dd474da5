import type { Workspace } from '../../db/repositories/workspaces';
import { createGroupCommit, SMALL_GROUP_INTERVAL_MS } from './group-commit';
import type { IncomingMessage } from './message-schema';
import { receive, type BatchStore, type Received, type StoredMessages } from './record-batch';
import { StorageDeadlineError } from './storage-deadline';

const shop = { id: 'ws_shop' } as Workspace;
const page = (messageId: string) => ({ type: 'page', messageId, anonymousId: 'visitor' }) as IncomingMessage;
const receipt = { receivedAt: new Date('2026-03-01T12:00:00Z') };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store whose transactions commit when the test says so; it keeps what each committed. */
function heldStore() {
  const committed: string[][] = [];
  const held: (() => void)[] = [];
  const store: BatchStore = (_workspace, received: readonly Received[]) =>
    new Promise<StoredMessages>((resolve) => {
      held.push(() => {
        const ids = received.map((r) => r.message.messageId);
        committed.push(ids);
        resolve({ inserted: new Set(ids), repeated: new Set(), conversions: [] });
      });
    });
  const releaseNext = () => (held.shift() as () => void)();
  /**
   * Until nothing more starts, also after a small group's wait: each quiet look waits three intervals, so a held
   * group's timer (due within one) always fires first, however late a loaded machine runs timers.
   */
  const releaseAll = async () => {
    for (let quiet = 0; quiet < 2; ) {
      if (held.length === 0) {
        quiet += 1;
        await sleep(3 * SMALL_GROUP_INTERVAL_MS);
        continue;
      }
      quiet = 0;
      releaseNext();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { store, committed, releaseNext, releaseAll, transactions: () => held.length + committed.length };
}

describe('group commit: transactions in flight', () => {
  it('lets small requests wait for the transaction in flight and go together, and starts a second one for a large group', async () => {
    const { store, committed, releaseAll, transactions } = heldStore();
    const recordBatch = createGroupCommit(store, receive);
    const singles = ['s-1', 's-2', 's-3'].map((id) => recordBatch(shop, [page(id)], receipt));
    expect(transactions()).toBe(1);
    const large = recordBatch(shop, Array.from({ length: 100 }, (_, i) => page(`b-${i}`)), receipt);
    expect(transactions()).toBe(2);
    const afterLarge = recordBatch(shop, [page('s-4')], receipt);
    expect(transactions()).toBe(2);

    await releaseAll();
    await Promise.all([...singles, large, afterLarge]);
    // The large request took the small ones waiting before it along.
    expect(committed).toEqual([['s-1'], ['s-2', 's-3', ...Array.from({ length: 100 }, (_, i) => `b-${i}`)], ['s-4']]);
  });
});

describe('group commit: small groups at most every smallGroupIntervalMs', () => {
  it('holds a small group until the interval since the last one started has passed, and lets one after a quiet moment go at once', async () => {
    const intervalMs = 300;
    const { store, committed, releaseNext, transactions } = heldStore();
    const recordBatch = createGroupCommit(store, receive, { smallGroupIntervalMs: intervalMs });
    const first = recordBatch(shop, [page('q-1')], receipt);
    const second = recordBatch(shop, [page('q-2')], receipt);
    releaseNext();
    await first;
    const third = recordBatch(shop, [page('q-3')], receipt);
    expect(transactions()).toBe(1);

    await sleep(intervalMs + 50);
    expect(transactions()).toBe(2);
    releaseNext();
    await Promise.all([second, third]);
    expect(committed).toEqual([['q-1'], ['q-2', 'q-3']]);

    await sleep(intervalMs + 50);
    const fourth = recordBatch(shop, [page('q-4')], receipt);
    expect(transactions()).toBe(3);
    releaseNext();
    await fourth;
  });

  it('does not hold a group of MIN_SECOND_GROUP_EVENTS or more', async () => {
    const { store, releaseNext, transactions } = heldStore();
    const recordBatch = createGroupCommit(store, receive, { smallGroupIntervalMs: 60_000 });
    const first = recordBatch(shop, [page('l-1')], receipt);
    releaseNext();
    await first;
    const large = recordBatch(shop, Array.from({ length: 100 }, (_, i) => page(`l-b-${i}`)), receipt);
    expect(transactions()).toBe(2);
    releaseNext();
    await large;
  });
});

describe('group commit: a request given up while it waits', () => {
  it('leaves the queue with the abort reason, and nothing of it is stored', async () => {
    const { store, committed, releaseAll } = heldStore();
    const recordBatch = createGroupCommit(store, receive);
    // A transaction in flight: the next requests wait for it.
    const first = recordBatch(shop, [page('m-1')], receipt);
    const second = recordBatch(shop, [page('m-2')], receipt);
    const deadline = new AbortController();
    const waiting = recordBatch(shop, [page('m-3')], receipt, deadline.signal);
    const other = recordBatch(shop, [page('m-4')], receipt);

    deadline.abort(new StorageDeadlineError(5_000));
    await expect(waiting).rejects.toBeInstanceOf(StorageDeadlineError);
    await releaseAll();

    await expect(Promise.all([first, second, other])).resolves.toEqual([1, 1, 1].map((stored) => expect.objectContaining({ stored })));
    expect(committed).toEqual([['m-1'], ['m-2', 'm-4']]);
  });

  it('is stored all the same once its transaction has begun: the promise settles with the commit', async () => {
    const { store, committed, releaseAll } = heldStore();
    const recordBatch = createGroupCommit(store, receive);
    const deadline = new AbortController();
    const inFlight = recordBatch(shop, [page('m-5')], receipt, deadline.signal);

    deadline.abort(new StorageDeadlineError(5_000));
    await releaseAll();

    await expect(inFlight).resolves.toMatchObject({ stored: 1 });
    expect(committed).toEqual([['m-5']]);
  });

  it('is refused at once when its deadline already passed', async () => {
    const { store, transactions } = heldStore();
    const deadline = new AbortController();
    deadline.abort(new StorageDeadlineError(5_000));

    await expect(createGroupCommit(store, receive)(shop, [page('m-6')], receipt, deadline.signal)).rejects.toBeInstanceOf(StorageDeadlineError);
    expect(transactions()).toBe(0);
  });
});
