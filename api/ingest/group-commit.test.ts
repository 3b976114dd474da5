import type { Workspace } from '../../db/repositories/workspaces';
import { createGroupCommit } from './group-commit';
import type { IncomingMessage } from './message-schema';
import { receive, type BatchStore, type Received, type StoredMessages } from './record-batch';
import { StorageDeadlineError } from './storage-deadline';

const shop = { id: 'ws_shop' } as Workspace;
const page = (messageId: string) => ({ type: 'page', messageId, anonymousId: 'visitor' }) as IncomingMessage;
const receipt = { receivedAt: new Date('2026-03-01T12:00:00Z') };

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
  const releaseAll = async () => {
    while (held.length > 0) {
      (held.shift() as () => void)();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { store, committed, releaseAll, transactions: () => held.length + committed.length };
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
