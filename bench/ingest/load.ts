import { summarize, type LatencySummary } from '../pipeline/stats';
import type { Sender } from './http-client';

export interface LoadResult {
  requests: number;
  events: number;
  failed: number;
  /** Failed requests by HTTP status (0: no answer). */
  failures: Record<number, number>;
  seconds: number;
  latency: LatencySummary;
  /** Open loop only: how many of the slowest 1% of requests were sent in each second of the run. */
  slowestBySecond?: number[];
}

function countFailure(failures: Record<number, number>, status: number): void {
  failures[status] = (failures[status] ?? 0) + 1;
}

/**
 * As fast as `concurrency` senders can go: each posts its next body as soon as the last one is answered. Bodies may
 * come from a generator, so a burst of a million events is never all in memory at once.
 */
export async function closedLoop(sender: Sender, path: string, bodies: Iterable<{ body: Buffer; events: number }>, concurrency: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures: Record<number, number> = {};
  const queue = bodies[Symbol.iterator]();
  let requests = 0;
  let failed = 0;
  let events = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let next = queue.next(); next.done !== true; next = queue.next()) {
        const item = next.value;
        requests += 1;
        const { status, ms } = await sender.post(path, item.body);
        latencies.push(ms);
        if (status === 200) events += item.events;
        else {
          failed += 1;
          countFailure(failures, status);
        }
      }
    }),
  );
  return { requests, events, failed, failures, seconds: (performance.now() - started) / 1000, latency: summarize(latencies) };
}

/**
 * At a fixed rate whatever the answers (open loop, as independent clients send): latency counts the time a request
 * waited behind earlier ones. Requests are sent in small bursts every few milliseconds, as timers allow.
 */
export async function openLoop(path: string, requests: readonly { sender: Sender; body: Buffer }[], perSecond: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const sentAt: number[] = [];
  const failures: Record<number, number> = {};
  const pending: Promise<void>[] = [];
  let failed = 0;
  let sent = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(requests.length, Math.floor(((performance.now() - started) / 1000) * perSecond));
      for (; sent < due; sent += 1) {
        const { sender, body } = requests[sent] as { sender: Sender; body: Buffer };
        const at = performance.now() - started;
        pending.push(
          sender.post(path, body).then(({ status, ms }) => {
            latencies.push(ms);
            sentAt.push(at);
            if (status !== 200) {
              failed += 1;
              countFailure(failures, status);
            }
          }),
        );
      }
      if (sent < requests.length) setTimeout(tick, 2);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  const latency = summarize(latencies);
  const slowestBySecond = Array.from({ length: Math.ceil(seconds) }, () => 0);
  latencies.forEach((ms, i) => {
    const second = Math.floor((sentAt[i] as number) / 1000);
    if (ms >= latency.p99) slowestBySecond[second] = (slowestBySecond[second] ?? 0) + 1;
  });
  return { requests: requests.length, events: requests.length - failed, failed, failures, seconds, latency, slowestBySecond };
}
