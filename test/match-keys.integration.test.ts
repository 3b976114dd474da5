import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sha256Hex } from '../domain/hashing';
import { declared } from './helpers/declared-answer';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

let pipeline: TestPipeline;
let admin: FastifyInstance;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app: admin } = buildTestApp(pipeline.database.db, { repos: pipeline.repos }));
});
afterAll(async () => {
  await admin.close();
  await pipeline.close();
});

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';

/** A page view as the tracking script sends it with a browser key: the ingest API added the sender's address. */
function browserPageView(anonymousId: string, url: string, at: Date, ip: string) {
  return { type: 'page', messageId: randomUUID(), anonymousId, timestamp: at.toISOString(), context: { ip, userAgent: IPHONE, page: { url } } };
}

async function sentUser(eventId: string) {
  const { events } = await pipeline.fake.receivedEvents();
  return events.find((e) => e.eventId === eventId)?.payload;
}

describe('match keys of a conversion sent from a backend', () => {
  it("carries the IP address, user agent and page of the visitor's latest page view, and records where each key came from", async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const click = ttclid();
    await pipeline.ingest(ws, [
      landing('phone-1', click, daysAgo(3)),
      browserPageView('phone-1', 'https://shop.example/ferns/boston?email=jo@example.com', daysAgo(1), '203.0.113.9'),
    ]);
    // The order is confirmed on the server: the message carries no IP, user agent or page of the buyer.
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { userId: 'buyer-1', anonymousId: 'phone-1' }, { order_id: `keys-${ws.id}`, total: 20, currency: 'USD' })]);
    const settled = await pipeline.settled(conversion!);

    expect(settled.status).toBe('delivered');
    expect(await sentUser(`keys-${ws.id}`)).toMatchObject({
      user: { ttclid: click, ttp: 'ttp-phone-1', external_id: sha256Hex('buyer-1'), ip: '203.0.113.9', user_agent: IPHONE },
      // The stored page URL is sent without its personal query parameters.
      page: { url: 'https://shop.example/ferns/boston' },
    });
    expect(settled.match_keys).toEqual({
      ttclid: { source: 'visitor', anonymousId: 'phone-1' },
      ttp: { source: 'visitor', anonymousId: 'phone-1' },
      external_id: { source: 'message' },
      ip: { source: 'visitor', anonymousId: 'phone-1' },
      user_agent: { source: 'visitor', anonymousId: 'phone-1' },
      page_url: { source: 'visitor', anonymousId: 'phone-1' },
    });

    const detail = await admin.inject({ method: 'GET', url: `/admin/workspaces/${ws.id}/conversions/${settled.id}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(declared('GET', '/admin/workspaces/:workspaceId/conversions/:conversionId', 200).parse(detail.json())).toMatchObject({ matchKeys: settled.match_keys, deliveryRequest: { events: 1, position: 0, outcome: 'success' } });

    const coverage = await admin.inject({ method: 'GET', url: `/admin/workspaces/${ws.id}/match-keys?days=7`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(coverage.statusCode).toBe(200);
    const body = declared('GET', '/admin/workspaces/:workspaceId/match-keys', 200).parse(coverage.json()) as { keys: { key: string }[] };
    expect(body).toMatchObject({ workspaceId: ws.id, days: 7, delivered: 1 });
    expect(body.keys.find((k: { key: string }) => k.key === 'ip')).toEqual({ key: 'ip', conversions: 1, share: 1, sources: { message: 0, visitor: 1, identity: 0 } });
    expect(body.keys.find((k: { key: string }) => k.key === 'email')).toEqual({ key: 'email', conversions: 0, share: 0, sources: { message: 0, visitor: 0, identity: 0 } });
    const bad = await admin.inject({ method: 'GET', url: `/admin/workspaces/${ws.id}/match-keys?days=0`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(bad.json()).toMatchObject({ error: 'invalid_request', issues: ['days must be a whole number of days from 1 to 366'] });
  });

  it('never uses, and then forgets, device details older than the attribution window', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { attributionWindowDays: 7 } });
    await pipeline.ingest(ws, [browserPageView('laptop-1', 'https://shop.example/', daysAgo(10), '198.51.100.4'), landing('laptop-1', ttclid(), daysAgo(2))]);
    const [conversion] = await pipeline.ingest(ws, [track('purchase', { anonymousId: 'laptop-1' }, { order_id: `old-${ws.id}`, total: 5, currency: 'USD' })]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'delivered' });
    const sent = await sentUser(`old-${ws.id}`);
    expect(sent?.user).not.toHaveProperty('ip');
    expect(sent?.user).not.toHaveProperty('user_agent');

    const visitor = () => pipeline.database.db('visitors').where({ workspace_id: ws.id, anonymous_id: 'laptop-1' }).first();
    expect(await visitor()).toMatchObject({ device_ip: '198.51.100.4', device_user_agent: IPHONE });
    expect(await pipeline.repos.profiles.forgetExpiredDevices()).toBeGreaterThanOrEqual(1);
    expect(await visitor()).toMatchObject({ device_ip: null, device_user_agent: null, device_page_url: null, device_seen_at: null, ttp: 'ttp-laptop-1' });
  });
});
