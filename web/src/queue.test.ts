import { createQueue, MAX_MESSAGE_BYTES, QUEUE_NAME, type Message, type QueueOptions } from './queue';
import { memoryStore, type KeyValueStore } from './store';
import { manualTimers, scriptedTransport, settle } from './test-doubles';

const message = (id: string, extra: Record<string, unknown> = {}): Message => ({ type: 'track', messageId: id, event: 'viewed', ...extra });
const ids = (batch: readonly Message[]) => batch.map((m) => m.messageId);

/** One page: a queue over `store` (shared by the pages of one browser). */
function page(store: KeyValueStore, overrides: Partial<QueueOptions> = {}) {
  const network = scriptedTransport();
  const timers = manualTimers();
  const warnings: string[] = [];
  let online = true;
  const queue = createQueue({
    store,
    transport: network.transport,
    envelope: (batch) => JSON.stringify({ batch, writeKey: 'pk_test' }),
    isOnline: () => online,
    schedule: timers.schedule,
    warn: (text) => warnings.push(text),
    ...overrides,
  });
  const stored = (): string[] => ids(JSON.parse(store.get(QUEUE_NAME) ?? '[]') as Message[]);
  return { queue, network, timers, warnings, stored, goOffline: () => (online = false), goOnline: () => (online = true) };
}

describe('queue', () => {
  it('batches what is pushed together and forgets it once the server confirms', async () => {
    const { queue, network, timers, stored } = page(memoryStore());
    queue.push(message('m1'));
    queue.push(message('m2'));
    expect(stored()).toEqual(['m1', 'm2']);
    await timers.runAll();
    expect(network.sent.map(ids)).toEqual([['m1', 'm2']]);
    expect(stored()).toEqual([]);
  });

  it('keeps messages in storage until confirmed, so the next page sends what a closed page could not', async () => {
    const store = memoryStore();
    const first = page(store);
    first.queue.push(message('m1'));
    // The page closes before its flush timer fires.
    const next = page(store);
    await next.queue.flush();
    expect(next.network.sent.map(ids)).toEqual([['m1']]);
    expect(next.stored()).toEqual([]);
  });

  it('retries server errors and network failures with growing waits, then delivers', async () => {
    const { queue, network, timers, stored } = page(memoryStore());
    network.answer('retry', new TypeError('Failed to fetch'), 'retry');
    queue.push(message('m1'));
    await timers.runNext();
    expect(timers.delays()).toEqual([1_000]);
    await timers.runNext();
    expect(timers.delays()).toEqual([2_000]);
    await timers.runNext();
    expect(timers.delays()).toEqual([4_000]);
    expect(stored()).toEqual(['m1']);
    await timers.runNext();
    expect(network.sent.map(ids)).toEqual([['m1'], ['m1'], ['m1'], ['m1']]);
    expect(stored()).toEqual([]);
  });

  it('drops a batch the server refused for good, and goes on with the rest', async () => {
    const { queue, network, timers, stored, warnings } = page(memoryStore(), { maxBatchBytes: 1 });
    network.answer('rejected');
    queue.push(message('bad'));
    queue.push(message('good'));
    await timers.runAll();
    expect(network.sent.map(ids)).toEqual([['bad'], ['good']]);
    expect(stored()).toEqual([]);
    expect(warnings).toEqual(['the server refused 1 event(s); they are dropped']);
  });

  it('holds messages while offline and sends them when the browser is back online', async () => {
    const { queue, network, timers, stored, goOffline, goOnline } = page(memoryStore());
    goOffline();
    queue.push(message('m1'));
    await timers.runAll();
    queue.flushOnExit();
    expect(network.sent).toEqual([]);
    expect(network.beaconed).toEqual([]);
    expect(stored()).toEqual(['m1']);
    goOnline();
    await queue.flush();
    expect(network.sent.map(ids)).toEqual([['m1']]);
  });

  it('splits requests to stay under the size a keepalive request may carry', async () => {
    const padding = 'x'.repeat(400);
    const { queue, network, timers } = page(memoryStore(), { maxBatchBytes: 1_000 });
    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) queue.push(message(id, { padding }));
    await timers.runAll();
    expect(network.sent.map(ids)).toEqual([['m1', 'm2'], ['m3', 'm4'], ['m5']]);
  });

  it('drops the oldest messages beyond its capacity', () => {
    const { queue, stored } = page(memoryStore(), { maxItems: 3 });
    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) queue.push(message(id));
    expect(stored()).toEqual(['m3', 'm4', 'm5']);
  });

  it('refuses a message the server would refuse for its size, without losing the others', async () => {
    const { queue, network, timers, warnings } = page(memoryStore());
    queue.push(message('huge', { blob: 'y'.repeat(MAX_MESSAGE_BYTES) }));
    queue.push(message('small'));
    await timers.runAll();
    expect(network.sent.map(ids)).toEqual([['small']]);
    expect(warnings).toEqual([expect.stringMatching(/^track dropped: \d+ bytes of JSON, over the limit of 32768$/)]);
  });

  it('beacons everything waiting when the page goes away, but not a batch already in flight', async () => {
    const { queue, network, timers, stored } = page(memoryStore(), { maxBatchBytes: 1 });
    let finish = (_result: 'delivered') => undefined as void;
    network.transport.send = (body) => {
      network.sent.push((JSON.parse(body) as { batch: Message[] }).batch);
      return new Promise((resolve) => (finish = resolve));
    };
    queue.push(message('m1'));
    queue.push(message('m2'));
    queue.push(message('m3'));
    await timers.runNext();
    expect(network.sent.map(ids)).toEqual([['m1']]);

    queue.flushOnExit();
    expect(network.beaconed.map(ids)).toEqual([['m2'], ['m3']]);
    // The keepalive request may die with the page: m1 stays stored until it is confirmed.
    expect(stored()).toEqual(['m1']);
    finish('delivered');
    await settle();
    expect(stored()).toEqual([]);
  });

  it('keeps what the browser would not beacon for the next page', () => {
    const { queue, network, stored } = page(memoryStore());
    network.refuseBeacons();
    queue.push(message('m1'));
    queue.flushOnExit();
    expect(stored()).toEqual(['m1']);
  });

  it('starts empty from storage that holds something else', async () => {
    const store = memoryStore();
    store.set(QUEUE_NAME, '{not json', 30);
    const { queue, network, stored } = page(store);
    await queue.flush();
    expect(network.sent).toEqual([]);
    queue.push(message('m1'));
    expect(stored()).toEqual(['m1']);
  });

  it('forgets everything waiting when cleared (consent revoked)', async () => {
    const { queue, network, stored } = page(memoryStore());
    queue.push(message('m1'));
    queue.clear();
    expect(stored()).toEqual([]);
    await queue.flush();
    expect(network.sent).toEqual([]);
  });
});
