import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../../adplatform/tiktok-fake';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { runWithConcurrency } from './concurrency';
import { cpuUsed } from './cpu';
import type { ThroughputResult } from './ceiling';
import type { Infrastructure } from './infrastructure';
import { summarize, type LatencySummary } from './stats';

const DAY = 86_400_000;

/** A workspace set up as a user would: a key, a purchase rule, a TikTok connection, and clicked visitors. */
export async function prepareWorkspace(infra: Infrastructure) {
  const repos = createRepositories(infra.db, createSecretBox(infra.secretKey));
  const workspace = await repos.workspaces.create('Benchmark shop');
  const { key } = await repos.apiKeys.create(workspace.id, 'bench');
  await repos.conversionRules.put(workspace.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
  await repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  return { workspaceId: workspace.id, key };
}

async function post(infra: Infrastructure, key: string, batch: unknown[]): Promise<void> {
  const response = await fetch(`${infra.ingestUrl}/v1/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: gzipSync(JSON.stringify({ batch, sentAt: new Date().toISOString() })),
  });
  if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
}

/** Landing-page views with a ttclid for `visitors`, sent before timing starts. */
export async function seedClicks(infra: Infrastructure, key: string, prefix: string, visitors: number): Promise<void> {
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

function purchase(prefix: string, i: number) {
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

/** Waits until TikTok received every order of the run; returns each order's arrival time. */
async function arrivals(infra: Infrastructure, prefix: string, count: number, timeoutMs: number): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Map<string, number>();
    for (const event of infra.fakeState.log.snapshot().events) {
      if (event.eventId?.startsWith(`${prefix}-order-`) && !event.deduplicated) seen.set(event.eventId, Date.parse(event.receivedAt));
    }
    if (seen.size >= count) return seen;
    if (Date.now() > deadline) throw new Error(`only ${seen.size} of ${count} conversions reached TikTok within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** As fast as clients can send: batches of 20 (the client library's flushAt) from 10 concurrent senders. */
export async function measureBurst(infra: Infrastructure, key: string, prefix: string, count: number): Promise<ThroughputResult> {
  const sentAt = new Map<string, number>();
  const cpuBefore = infra.cpu();
  const startedAt = Date.now();
  await runWithConcurrency(Math.ceil(count / 20), 10, async (b) => {
    const batch = Array.from({ length: Math.min(20, count - b * 20) }, (_, j) => purchase(prefix, b * 20 + j));
    const at = Date.now();
    await post(infra, key, batch);
    for (const message of batch) sentAt.set(message.properties.order_id, at);
  });
  const arrived = await arrivals(infra, prefix, count, 10 * 60_000);
  const lastArrival = Math.max(...arrived.values());
  return {
    cpu: cpuUsed(cpuBefore, infra.cpu()),
    completed: arrived.size,
    perSecond: arrived.size / ((lastArrival - startedAt) / 1000),
    latency: summarize([...arrived].map(([orderId, at]) => at - (sentAt.get(orderId) as number))),
  };
}

/** A steady `rate` of single-purchase requests for `seconds`; latency from the request to TikTok's receipt. */
export async function measureSteady(infra: Infrastructure, key: string, prefix: string, rate: number, seconds: number): Promise<LatencySummary & { cpu: string }> {
  const count = rate * seconds;
  const sentAt = new Map<string, number>();
  const cpuBefore = infra.cpu();
  const startedAt = Date.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = startedAt + (i * 1000) / rate;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    const message = purchase(prefix, i);
    sentAt.set(message.properties.order_id, Date.now());
    inFlight.push(post(infra, key, [message]));
  }
  await Promise.all(inFlight);
  const arrived = await arrivals(infra, prefix, count, 5 * 60_000);
  return { ...summarize([...arrived].map(([orderId, at]) => at - (sentAt.get(orderId) as number))), cpu: cpuUsed(cpuBefore, infra.cpu()) };
}
