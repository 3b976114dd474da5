import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_TRACK_PATH, type FakeTikTokFault } from '../../devstack/tiktok-fake';
import { PROCESS_KINDS, type KillAndRestart, type ProcessKind, type SoakStack } from './stack';

/**
 * TikTok's own answers when it is overloaded or failing (reference §2.2–2.3): its rate limits are codes in the
 * envelope on HTTP 200 (40100 app QPS, 40133 advertiser QPS; event/track never answers HTTP 429), its system errors
 * 50000 and 50002, and a gateway in front of it answers an nginx 502 or 503 page.
 */
export const BURSTS: readonly { name: string; family: 'throttling' | '5xx'; fault: FakeTikTokFault }[] = [
  { name: 'throttled (40100)', family: 'throttling', fault: { code: 40100 } },
  { name: 'advertiser QPS limit (40133)', family: 'throttling', fault: { code: 40133 } },
  { name: 'system error (50000)', family: '5xx', fault: { code: 50000 } },
  { name: 'TikTok-side timeout (50002)', family: '5xx', fault: { code: 50002 } },
  { name: 'gateway HTTP 502', family: '5xx', fault: { httpStatus: 502 } },
  { name: 'gateway HTTP 503', family: '5xx', fault: { httpStatus: 503 } },
];

export interface KillRecord extends KillAndRestart {
  /** Milliseconds after the load started. */
  atMs: number;
}

export interface BurstRecord {
  name: string;
  family: 'throttling' | '5xx';
  atMs: number;
  forMs: number;
}

export interface FaultsDone {
  kills: KillRecord[];
  bursts: BurstRecord[];
}

export interface Faults {
  /** No more kills or bursts; resolves once a restart under way has finished. */
  stop(): Promise<FaultsDone>;
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Draws from a shuffled bag of `items`, refilled when empty, never the same twice in a row: each comes up in turn. */
function bag<T>(items: readonly T[]): () => T {
  let left: T[] = [];
  let last: T | undefined;
  return () => {
    if (left.length === 0) left = shuffled(items);
    if (left.length > 1 && left[0] === last) left.push(left.shift() as T);
    last = left.shift() as T;
    return last;
  };
}

/** About `everyMs` (±25%) after the previous slot, counted from `startedAt` so that slow restarts do not push it. */
async function untilSlot(startedAt: number, slot: number, everyMs: number, stopped: AbortSignal): Promise<void> {
  const due = startedAt + slot * everyMs + (Math.random() - 0.5) * everyMs * 0.5;
  await sleep(Math.max(0, due - performance.now()), undefined, { signal: stopped }).catch(() => undefined);
}

/**
 * The fault driver: a kill -9 of a process drawn at random (each kind in turn, in a random order) about every
 * `killEveryMs`, each followed by its restart, and a burst of TikTok throttling or 5xx about every `burstEveryMs`.
 */
export function startFaults(stack: SoakStack, options: { killEveryMs: number; burstEveryMs: number; burstMs: number }, startedAt: number): Faults {
  const stopped = new AbortController();
  const kills: KillRecord[] = [];
  const bursts: BurstRecord[] = [];

  const nextKind = bag<ProcessKind>(PROCESS_KINDS);
  const killing = (async () => {
    for (let slot = 1; ; slot += 1) {
      await untilSlot(startedAt, slot, options.killEveryMs, stopped.signal);
      if (stopped.signal.aborted) return;
      const atMs = performance.now() - startedAt;
      kills.push({ atMs, ...(await stack.killAndRestart(nextKind())) });
    }
  })();

  // Throttling and 5xx take turns, each family drawing its own kinds in turn.
  const families = { throttling: bag(BURSTS.filter((b) => b.family === 'throttling')), '5xx': bag(BURSTS.filter((b) => b.family === '5xx')) };
  const bursting = (async () => {
    for (let slot = 1; ; slot += 1) {
      await untilSlot(startedAt, slot, options.burstEveryMs, stopped.signal);
      if (stopped.signal.aborted) return;
      const burst = families[slot % 2 === 1 ? 'throttling' : '5xx']();
      await stack.fake.injectFaults([{ path: EVENT_TRACK_PATH, ...burst.fault, forMs: options.burstMs }]);
      bursts.push({ name: burst.name, family: burst.family, atMs: performance.now() - startedAt, forMs: options.burstMs });
    }
  })();

  // A restart that fails ends the soak, through stop(); until then it must not be an unhandled rejection.
  for (const loop of [killing, bursting]) loop.catch(() => undefined);
  return {
    async stop() {
      stopped.abort();
      await Promise.all([killing, bursting]);
      await stack.fake.clearFaults();
      return { kills, bursts };
    },
  };
}
