import { setTimeout as sleep } from 'node:timers/promises';
import type { ComposeProject } from './engine';

/** The README's five minutes, through the API container: its CLI for the settings, its published port for events. */
export async function fiveMinutePurchase(project: ComposeProject, apiUrl: string, adminToken: string): Promise<{ workspaceId: string; key: string }> {
  // A 503 ("retry in 5 seconds": PostgreSQL slow to answer on a loaded machine) is tried again, as its answer asks.
  const cli = async (...args: string[]): Promise<Record<string, unknown>> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return JSON.parse(await project.exec('api-1', ['signalbox', '--json', ...args], { SIGNALBOX_URL: 'http://127.0.0.1:8080', SIGNALBOX_ADMIN_TOKEN: adminToken })) as Record<string, unknown>;
      } catch (error) {
        if (attempt === 6 || !/retry in \d+ seconds/.test((error as Error).message)) throw error;
        await sleep(5_000);
      }
    }
  };
  const workspace = (await cli('workspaces', 'create', 'My shop')) as { id?: string; workspace?: { id: string } };
  const workspaceId = workspace.id ?? workspace.workspace?.id;
  if (workspaceId === undefined) throw new Error(`workspaces create answered ${JSON.stringify(workspace)}`);
  const created = (await cli('keys', 'create', workspaceId, '--name', 'backend')) as { key?: string };
  if (created.key === undefined) throw new Error(`keys create answered ${JSON.stringify(created)}`);
  await cli('rules', 'put', workspaceId, 'purchase');
  await cli('tiktok', 'set', workspaceId, '--token', 'signalbox-dev-tiktok-access-token', '--pixel', 'CSIGNALBOXDEVPIXEL01');
  const post = async (path: string, body: unknown) => {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await fetch(`${apiUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (answer.status === 200) return;
      if (attempt === 6 || answer.status !== 503) throw new Error(`POST ${path} answered ${answer.status}: ${await answer.text()}`);
      await sleep(5_000);
    }
  };
  await post('/v1/page', { anonymousId: 'visitor-1', context: { page: { url: 'https://shop.example/?ttclid=E.C.P.demo' }, ttp: '2F7h37YkS1j57AYSKTI7IHhJPYH' } });
  await post('/v1/track', {
    event: 'purchase',
    userId: 'u-1',
    anonymousId: 'visitor-1',
    properties: { order_id: 'A-1001', total: 59.9, currency: 'USD' },
    context: { traits: { email: 'jo@example.com' } },
  });
  return { workspaceId, key: created.key };
}

interface FakeEvent {
  eventId?: string;
  deduplicated: boolean;
}

/** TikTok's count of each event_id: the fake's accepted events that were not deduplicated. */
export async function countedAtTikTok(fakeUrl: string): Promise<Map<string, number>> {
  const { events } = (await (await fetch(`${fakeUrl}/_fake/events`)).json()) as { events: FakeEvent[] };
  const counted = new Map<string, number>();
  for (const event of events) if (!event.deduplicated && event.eventId !== undefined) counted.set(event.eventId, (counted.get(event.eventId) ?? 0) + 1);
  return counted;
}

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs / 1000} s`);
    await sleep(1000);
  }
}

export interface Load {
  /** The purchases answered 200, by number. */
  acknowledged: number[];
  /** Those never answered 200 after every attempt. */
  unanswered: number[];
  stop(): Promise<void>;
}

/**
 * A purchase every `intervalMs` (a page view with a TikTok click and an order, in one batch), to the API replicas in
 * turn; one not answered 200 is sent again to the other replica, as a client behind a load balancer retries.
 */
export function startLoad(apiUrls: readonly string[], key: string, first: number, intervalMs: number): Load {
  const acknowledged: number[] = [];
  const unanswered: number[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const send = async (n: number) => {
    const body = JSON.stringify({
      batch: [
        { type: 'page', messageId: `page-${n}`, anonymousId: `visitor-${n}`, context: { page: { url: `https://shop.example/?ttclid=E.C.P.click-${n}` } } },
        { type: 'track', messageId: `order-${n}`, event: 'purchase', anonymousId: `visitor-${n}`, properties: { order_id: `C-${n}`, total: 25, currency: 'USD' } },
      ],
    });
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const url = apiUrls[(n + attempt) % apiUrls.length] as string;
      const status = await fetch(`${url}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) }).then(
        (answer) => answer.status,
        () => 0,
      );
      if (status === 200) {
        acknowledged.push(n);
        return;
      }
      await sleep(500);
    }
    unanswered.push(n);
  };
  const loop = (async () => {
    for (let n = first; !stopped; n += 1) {
      const sending = send(n).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      await sleep(intervalMs);
    }
  })();
  return {
    acknowledged,
    unanswered,
    stop: async () => {
      stopped = true;
      await loop;
      await Promise.all([...inFlight]);
    },
  };
}

/**
 * Every acknowledged message stored once, every purchase one conversion, delivered, counted once by TikTok. Waits for
 * the pending ones first (a wake-up lost with a killed process waits for the outbox sweeper, every minute).
 */
export async function checkEachOnce(project: ComposeProject, fakeUrl: string, workspaceId: string, purchases: readonly number[]): Promise<string[]> {
  const problems: string[] = [];
  await waitUntil('no pending conversion', async () => (await project.sql(`select count(*) from conversions where workspace_id = '${workspaceId}' and status = 'pending'`))[0] === '0', 240_000);
  const stored = new Map<string, number>();
  for (const id of await project.sql(`select message_id from events where workspace_id = '${workspaceId}'`)) stored.set(id, (stored.get(id) ?? 0) + 1);
  for (const n of purchases) {
    for (const id of [`page-${n}`, `order-${n}`]) if (stored.get(id) !== 1) problems.push(`message ${id} stored ${stored.get(id) ?? 0} times`);
  }
  const conversions = new Map<string, string[]>();
  for (const line of await project.sql(`select event_id, status from conversions where workspace_id = '${workspaceId}'`)) {
    const [eventId, status] = line.split('\t') as [string, string];
    conversions.set(eventId, [...(conversions.get(eventId) ?? []), status]);
  }
  const counted = await countedAtTikTok(fakeUrl);
  for (const n of purchases) {
    const statuses = conversions.get(`C-${n}`) ?? [];
    if (statuses.length !== 1 || statuses[0] !== 'delivered') problems.push(`order C-${n}: conversions ${JSON.stringify(statuses)}`);
    if (counted.get(`C-${n}`) !== 1) problems.push(`order C-${n} counted ${counted.get(`C-${n}`) ?? 0} times by TikTok`);
  }
  return problems;
}
