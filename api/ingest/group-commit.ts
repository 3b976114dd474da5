import type { Workspace } from '../../db/repositories/workspaces';
import type { IncomingMessage } from './message-schema';
import type { BatchRecorder, BatchResult, BatchStore, Receipt, Received, StoredMessages } from './record-batch';
import { databaseErrorCode, isStorageUnavailable } from '../../db/storage-errors';

/** Transactions of one workspace at a time: one commits while the next group gathers. */
const MAX_IN_FLIGHT = 2;
/**
 * A second transaction starts beside the first only for at least this many events. Fewer (single events) wait for the
 * one in flight and go together: PostgreSQL then commits, and flushes its log, once for more requests.
 */
const MIN_SECOND_GROUP_EVENTS = 100;
/** Events per group, so one transaction stays short (a single request may exceed it alone). */
const MAX_GROUP_EVENTS = 2_000;
/**
 * A group under MIN_SECOND_GROUP_EVENTS starts at most this often per workspace. Each commit costs PostgreSQL ~0.5–1 ms
 * of CPU whatever it holds (its log flush, the statement's set-up), so under a steady stream of single events a
 * group then holds this many milliseconds' worth of them instead of one commit's duration: at most this much longer
 * a wait, and only when the previous small group started less than this long ago (a request after a quiet moment
 * goes at once).
 */
export const SMALL_GROUP_INTERVAL_MS = 10;

type Share = Omit<BatchResult, 'duplicates'>;

interface Queue {
  waiting: Waiting[];
  waitingEvents: number;
  inFlight: number;
  /** When the last group under MIN_SECOND_GROUP_EVENTS started (performance.now()). */
  smallStartedAt: number;
  /** Set while the next small group waits for SMALL_GROUP_INTERVAL_MS to pass. */
  timer?: NodeJS.Timeout;
}

interface Waiting {
  workspace: Workspace;
  received: Received[];
  resolve(share: Share): void;
  reject(error: unknown): void;
}

/** Hands each request of a group its share: the events it was the first to carry, and their conversions. */
function settle(group: readonly Waiting[], stored: StoredMessages): void {
  const claimed = new Set<string>();
  for (const request of group) {
    const own = new Set(request.received.map((r) => r.message.messageId).filter((id) => stored.inserted.has(id) && !claimed.has(id)));
    for (const id of own) claimed.add(id);
    request.resolve({
      stored: own.size,
      repeatedConversions: [...own].filter((id) => stored.repeated.has(id)).length,
      conversions: stored.conversions.filter((c) => own.has(c.messageId)).map(({ messageId: _messageId, ...conversion }) => conversion),
    });
  }
}

/**
 * Group commit: requests of a workspace that arrive while its transactions are busy wait, and then go together in one
 * transaction (one BEGIN and COMMIT, one statement per table, one WAL flush) instead of one each. Every request is
 * answered only after the commit that holds its events. When PostgreSQL refuses a group for its content, each request
 * is tried alone, so that one bad request fails alone. A request given up while it waits (its deadline) is dropped.
 * Small groups start at most every SMALL_GROUP_INTERVAL_MS.
 */
export function createGroupCommit(
  store: BatchStore,
  receive: (messages: readonly IncomingMessage[], receipt: Receipt) => Received[],
  { smallGroupIntervalMs = SMALL_GROUP_INTERVAL_MS } = {},
): BatchRecorder {
  const queues = new Map<string, Queue>();
  const mayStart = (queue: Queue) =>
    queue.waiting.length > 0 && (queue.inFlight === 0 || (queue.inFlight < MAX_IN_FLIGHT && queue.waitingEvents >= MIN_SECOND_GROUP_EVENTS));

  async function commit(group: Waiting[]): Promise<void> {
    const workspace = (group[0] as Waiting).workspace;
    try {
      settle(group, await store(workspace, group.flatMap((w) => w.received)));
    } catch (error) {
      const refusedForContent = group.length > 1 && !isStorageUnavailable(error) && databaseErrorCode(error) !== undefined;
      if (!refusedForContent) {
        for (const request of group) request.reject(error);
        return;
      }
      for (const request of group) {
        await store(workspace, request.received).then((stored) => settle([request], stored), request.reject);
      }
    }
  }

  function next(workspaceId: string): void {
    const queue = queues.get(workspaceId);
    if (queue === undefined) return;
    while (mayStart(queue)) {
      if (queue.waitingEvents < MIN_SECOND_GROUP_EVENTS) {
        const now = performance.now();
        const waitMs = queue.smallStartedAt + smallGroupIntervalMs - now;
        if (waitMs > 0) {
          queue.timer ??= setTimeout(() => {
            queue.timer = undefined;
            next(workspaceId);
          }, waitMs);
          return;
        }
        queue.smallStartedAt = now;
      }
      const group: Waiting[] = [];
      let events = 0;
      while (queue.waiting.length > 0 && (group.length === 0 || events + (queue.waiting[0] as Waiting).received.length <= MAX_GROUP_EVENTS)) {
        const request = queue.waiting.shift() as Waiting;
        events += request.received.length;
        group.push(request);
      }
      queue.waitingEvents -= events;
      queue.inFlight += 1;
      void commit(group).finally(() => {
        queue.inFlight -= 1;
        next(workspaceId);
      });
    }
    if (queue.inFlight === 0 && queue.waiting.length === 0 && queue.timer === undefined) queues.delete(workspaceId);
  }

  return async function recordBatch(workspace: Workspace, messages: readonly IncomingMessage[], receipt: Receipt, signal?: AbortSignal): Promise<BatchResult> {
    signal?.throwIfAborted();
    const received = receive(messages, receipt);
    const share = await new Promise<Share>((resolve, reject) => {
      const queue = queues.get(workspace.id) ?? { waiting: [], waitingEvents: 0, inFlight: 0, smallStartedAt: -Infinity };
      queues.set(workspace.id, queue);
      const request: Waiting = { workspace, received, resolve, reject };
      queue.waiting.push(request);
      queue.waitingEvents += received.length;
      // Given up before its group began (the request's deadline): it leaves the queue and nothing of it is stored.
      signal?.addEventListener(
        'abort',
        () => {
          const at = queue.waiting.indexOf(request);
          if (at === -1) return;
          queue.waiting.splice(at, 1);
          queue.waitingEvents -= received.length;
          reject(signal.reason);
        },
        { once: true },
      );
      next(workspace.id);
    });
    return { ...share, duplicates: messages.length - share.stored };
  };
}
