import http from 'node:http';
import { summarize, type LatencySummary } from '../pipeline/stats';

export interface LoadResult {
  requests: number;
  events: number;
  failed: number;
  /** Failed requests by HTTP status (0: no answer). */
  failures: Record<number, number>;
  seconds: number;
  latency: LatencySummary;
}

function countFailure(failures: Record<number, number>, status: number): void {
  failures[status] = (failures[status] ?? 0) + 1;
}

/** POSTs prepared bodies over kept-alive connections; resolves with the status and the time to the whole answer. */
export function createSender(baseUrl: string, key: string, maxSockets: number) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    post(path: string, body: Buffer): Promise<{ status: number; ms: number }> {
      const started = performance.now();
      return new Promise((resolve) => {
        const request = http.request({ host: url.hostname, port: url.port, path, method: 'POST', agent, headers: { ...headers, 'content-length': body.length } }, (response) => {
          response.resume();
          response.once('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
        });
        request.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

export type Sender = ReturnType<typeof createSender>;

/** As fast as `concurrency` senders can go: each posts its next body as soon as the last one is answered. */
export async function closedLoop(sender: Sender, path: string, bodies: readonly { body: Buffer; events: number }[], concurrency: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures: Record<number, number> = {};
  let next = 0;
  let failed = 0;
  let events = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const item = bodies[next++] as { body: Buffer; events: number };
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
  return { requests: bodies.length, events, failed, failures, seconds: (performance.now() - started) / 1000, latency: summarize(latencies) };
}

/**
 * At a fixed rate whatever the answers (open loop, as independent clients send): latency counts the time a request
 * waited behind earlier ones. Requests are sent in small bursts every few milliseconds, as timers allow.
 */
export async function openLoop(path: string, requests: readonly { sender: Sender; body: Buffer }[], perSecond: number): Promise<LoadResult> {
  const latencies: number[] = [];
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
        pending.push(
          sender.post(path, body).then(({ status, ms }) => {
            latencies.push(ms);
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
  return { requests: requests.length, events: requests.length - failed, failed, failures, seconds, latency: summarize(latencies) };
}
