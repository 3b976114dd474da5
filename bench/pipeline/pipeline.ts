import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../../devstack/tiktok-fake';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { runWithConcurrency } from './concurrency';
import { cpuUsed } from './cpu';
import type { Infrastructure } from './infrastructure';
import { summarize, type LatencySummary } from './stats';

const DAY = 86_400_000;

export interface PhaseResult {
  conversions: number;
  /** Conversions per second from the first request to the last TikTok receipt. */
  perSecond: number;
  /** From each conversion's ingest request to TikTok's receipt of its event. */
  latency: LatencySummary;
  /** `event/track` requests that carried this phase's events. */
  tiktokRequests: number;
  /** CPU seconds by part over the phase. */
  cpu: string;
}

export interface BenchWorkspace {
  workspaceId: string;
  key: string;
  prefix: string;
}

/** A workspace set up as a user would: a key, a purchase rule, a TikTok connection, and `visitors` clicked visitors. */
export async function prepareWorkspace(infra: Infrastructure, prefix: string, visitors: number): Promise<BenchWorkspace> {
  const repos = createRepositories(infra.db, createSecretBox(infra.secretKey));
  const workspace = await repos.workspaces.create(`Benchmark shop ${prefix}`);
  const { key } = await repos.apiKeys.create(workspace.id, 'bench');
  await repos.conversionRules.put(workspace.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  await repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  const bench = { workspaceId: workspace.id, key, prefix };
  await seedClicks(infra, bench, visitors);
  return bench;
}

/** Like the client library: a 429 (a backlog of requests let through at once) is sent again after `Retry-After`. */
export async function post(infra: Infrastructure, key: string, batch: unknown[]): Promise<void> {
  const body = gzipSync(JSON.stringify({ batch, sentAt: new Date().toISOString() }));
  for (;;) {
    const response = await fetch(`${infra.ingestUrl}/v1/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body,
    });
    if (response.status === 200) return;
    if (response.status !== 429) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

/** Landing-page views with a ttclid for each visitor, sent before timing starts. */
async function seedClicks(infra: Infrastructure, { key, prefix }: BenchWorkspace, visitors: number): Promise<void> {
  const clickedAt = new Date(Date.now() - DAY).toISOString();
  const pages = Array.from({ length: visitors }, (_, i) => ({
    type: 'page',
    messageId: randomUUID(),
    anonymousId: `${prefix}-${i}`,
    timestamp: clickedAt,
    context: { page: { url: `https://shop.example/landing?ttclid=E.C.P.${prefix}${i}` } },
  }));
  for (let i = 0; i < pages.length; i += 1000) await post(infra, key, pages.slice(i, i + 1000));
}

export function purchase(prefix: string, i: number) {
  return {
    type: 'track',
    event: 'purchase',
    messageId: randomUUID(),
    anonymousId: `${prefix}-${i}`,
    userId: `${prefix}-user-${i}`,
    timestamp: new Date().toISOString(),
    properties: { order_id: `${prefix}-order-${i}`, total: 42.5, currency: 'USD' },
    context: { traits: { email: `${prefix}-${i}@example.com` } },
  };
}

/** Waits until TikTok received every order of the phase; returns each order's arrival time. */
async function arrivals(infra: Infrastructure, prefix: string, count: number, timeoutMs: number): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Map<string, number>();
    for (const event of infra.fakeState.log.snapshot().events) {
      if (event.eventId?.startsWith(`${prefix}-order-`) && !event.deduplicated) seen.set(event.eventId, Date.parse(event.receivedAt));
    }
    if (seen.size >= count) return seen;
    if (Date.now() > deadline) throw new Error(`only ${seen.size} of ${count} conversions reached TikTok within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function requestsOf(infra: Infrastructure, prefix: string): number {
  return infra.fakeState.log.snapshot().requests.filter((r) => r.rawBody.includes(`"${prefix}-order-`)).length;
}

/** Sends a phase's purchases (`send` notes when each was sent and when ingest acknowledged it) and waits for TikTok to have them all. */
async function measure(infra: Infrastructure, { prefix, workspaceId }: BenchWorkspace, title: string, count: number, send: (sentAt: Map<string, number>, ackedAt: Map<string, number>) => Promise<void>): Promise<PhaseResult> {
  const sentAt = new Map<string, number>();
  const ackedAt = new Map<string, number>();
  if (infra.profile.enabled) await infra.profile.start();
  const cpuBefore = infra.cpu();
  const startedAt = Date.now();
  await send(sentAt, ackedAt);
  const arrived = await arrivals(infra, prefix, count, 10 * 60_000);
  if (infra.profile.enabled) await infra.profile.print(title, workspaceId, { sentAt, ackedAt, arrivedAt: arrived });
  return {
    conversions: arrived.size,
    perSecond: arrived.size / ((Math.max(...arrived.values()) - startedAt) / 1000),
    latency: summarize([...arrived].map(([orderId, at]) => at - (sentAt.get(orderId) as number))),
    tiktokRequests: requestsOf(infra, prefix),
    cpu: cpuUsed(cpuBefore, infra.cpu()),
  };
}

/** As fast as clients can send: batches of 20 (the client library's flushAt) from 10 concurrent senders. */
export function measureBurst(infra: Infrastructure, workspace: BenchWorkspace, count: number): Promise<PhaseResult> {
  const { key, prefix } = workspace;
  return measure(infra, workspace, 'max rate', count, (sentAt, ackedAt) =>
    runWithConcurrency(Math.ceil(count / 20), 10, async (b) => {
      const batch = Array.from({ length: Math.min(20, count - b * 20) }, (_, j) => purchase(prefix, b * 20 + j));
      const at = Date.now();
      await post(infra, key, batch);
      const acked = Date.now();
      for (const message of batch) {
        sentAt.set(message.properties.order_id, at);
        ackedAt.set(message.properties.order_id, acked);
      }
    }),
  );
}

/** A steady `rate` of purchases for `seconds`, in requests of `perRequest` purchases (1: one request per purchase). */
export function measureSteady(infra: Infrastructure, workspace: BenchWorkspace, rate: number, seconds: number, perRequest: number): Promise<PhaseResult> {
  const { key, prefix } = workspace;
  const count = rate * seconds;
  return measure(infra, workspace, `steady ${rate}/s, ${perRequest} per request`, count, async (sentAt, ackedAt) => {
    const startedAt = Date.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < count; i += perRequest) {
      const due = startedAt + (i * 1000) / rate;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const batch = Array.from({ length: Math.min(perRequest, count - i) }, (_, j) => purchase(prefix, i + j));
      for (const message of batch) sentAt.set(message.properties.order_id, Date.now());
      inFlight.push(
        post(infra, key, batch).then(() => {
          for (const message of batch) ackedAt.set(message.properties.order_id, Date.now());
        }),
      );
    }
    await Promise.all(inFlight);
  });
}

/** Single purchases `gapMs` apart, each to an idle workflow: the latency of a lone conversion. */
export async function measureLone(infra: Infrastructure, { key, prefix }: BenchWorkspace, count: number, gapMs: number): Promise<LatencySummary> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const message = purchase(prefix, i);
    const sentAt = Date.now();
    await post(infra, key, [message]);
    const arrived = await arrivals(infra, prefix, i + 1, 60_000);
    latencies.push((arrived.get(message.properties.order_id) as number) - sentAt);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return summarize(latencies);
}
