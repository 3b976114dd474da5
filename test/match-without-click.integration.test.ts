import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createAdReportService } from '../api/services/ad-report-service';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import type { Workspace } from '../db/repositories/workspaces';
import { sha256Hex } from '../domain/hashing';
import { runAgainst } from './helpers/cli';
import { buildTestApp } from './helpers/test-app';
import { daysAgo, identify, landing, track, ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';

/**
 * Issue 18: `matchWithoutClick` through the CLI, the settings API, ingest, the group workflow and the fake TikTok.
 * Off, a conversion without a click inside the window is skipped as spec §6.4 says; on, it is sent without `ttclid`
 * for TikTok to match on the person's other keys, says so, and is counted apart from click-attributed ones.
 */
let pipeline: TestPipeline;
let admin: FastifyInstance;
let url: string;
beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app: admin } = buildTestApp(pipeline.database.db, { repos: pipeline.repos }));
  url = await admin.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await admin.close();
  await pipeline.close();
});

const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15';

const signalbox = (args: string[]) => runAgainst(url, args);

/** A shopper who never clicked an ad: a page view from their browser, then their email and phone on sign-up. */
async function shopperWithoutClick(ws: Workspace, visitor: string, userId: string): Promise<void> {
  await pipeline.ingest(ws, [
    { type: 'page', messageId: randomUUID(), anonymousId: visitor, timestamp: daysAgo(1).toISOString(), context: { ip: '192.0.2.44', userAgent: SAFARI, page: { url: 'https://shop.example/' } }, properties: { _ttp: `ttp-${visitor}` } },
    identify(userId, visitor, { email: ' Jo@Example.com ', phone: '(213) 373-4253' }),
  ]);
}

/** The order as the shop's server confirms it: the user and the order, nothing of the browser. */
const order = (userId: string, visitor: string, orderId: string) => track('purchase', { userId, anonymousId: visitor }, { order_id: orderId, total: 20, currency: 'USD' });

async function sentUser(eventId: string): Promise<Record<string, unknown> | undefined> {
  const { events } = await pipeline.fake.receivedEvents();
  return events.find((e) => e.eventId === eventId)?.payload.user as Record<string, unknown> | undefined;
}

describe('conversions without a click (issue 18)', () => {
  it('skips one as no_ttclid, exactly as before, while matchWithoutClick is off', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    expect(ws.matchWithoutClick).toBe(false);
    await shopperWithoutClick(ws, 'off-visitor', 'off-user');
    const [conversion] = await pipeline.ingest(ws, [order('off-user', 'off-visitor', `off-${ws.id}`)]);
    expect(await pipeline.settled(conversion!)).toMatchObject({ status: 'skipped', reason: 'no_ttclid', attempts: 0, request_payload: null, sent_without_click: false });
    expect(await sentUser(`off-${ws.id}`)).toBeUndefined();
  });

  it('with matchWithoutClick on, sends it without a ttclid but with every key held for the person, and says so', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }] });
    const set = await signalbox(['settings', 'set', ws.id, '--match-without-click']);
    expect(set.stdout).toMatch(/^Match without click: +yes: conversions without a click inside the window are sent/m);
    await shopperWithoutClick(ws, 'on-visitor', 'on-user');

    const [conversion] = await pipeline.ingest(ws, [order('on-user', 'on-visitor', `on-${ws.id}`)]);
    const settled = await pipeline.settled(conversion!);
    expect(settled).toMatchObject({ status: 'delivered', reason: null, sent_without_click: true, ttclid: null, click_anonymous_id: null, click_campaign_id: null, identity_path: null });
    const user = await sentUser(`on-${ws.id}`);
    expect(user).toEqual({
      email: sha256Hex('jo@example.com'),
      phone: sha256Hex('+12133734253'),
      external_id: sha256Hex('on-user'),
      ttp: 'ttp-on-visitor',
      ip: '192.0.2.44',
      user_agent: SAFARI,
    });
    const checked = await pipeline.database.db('conversion_history').where({ conversion_id: settled.id, step: 'window_checked' }).first();
    expect(checked?.detail).toEqual({ eligible: true, sentWithoutClick: true });

    const shown = await signalbox(['conversions', 'show', ws.id, settled.id]);
    expect(shown.stdout).toMatch(/^Sent without click: +yes: no TikTok click inside the attribution window, so TikTok matches it on email, external_id, ip, page_url, phone, ttp, user_agent;/m);
    expect(shown.stdout).toMatch(/^Click \(ttclid\): +-$/m);
    expect((await signalbox(['conversions', 'list', ws.id])).stdout).toMatch(/delivered .* sent without a click/);

    // Turned off again, the next one is skipped as before.
    await signalbox(['settings', 'set', ws.id, '--no-match-without-click']);
    const [later] = await pipeline.ingest(ws, [order('on-user', 'on-visitor', `on-later-${ws.id}`)]);
    expect(await pipeline.settled(later!)).toMatchObject({ status: 'skipped', reason: 'no_ttclid', sent_without_click: false });
  });

  it('sends a conversion whose only click is older than the window without it, keeps one with a click inside it click-attributed, and counts them apart', async () => {
    const ws = await pipeline.workspace({ rules: [{ sourceEvent: 'purchase' }], settings: { matchWithoutClick: true, attributionWindowDays: 7 }, connected: false });
    await pipeline.repos.tiktokConnections.put(ws.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const oldClick = ttclid();
    const newClick = ttclid();
    const campaignLanding = (visitor: string, click: string, at: Date) =>
      landing(visitor, click, at, { context: { page: { url: `https://shop.example/landing?ttclid=${click}&campaign_id=1801&adgroup_id=1802&ad_id=1803` } } });
    await pipeline.ingest(ws, [campaignLanding('lapsed', oldClick, daysAgo(8)), campaignLanding('recent', newClick, daysAgo(2))]);
    const [lapsed, recent] = await pipeline.ingest(ws, [
      track('purchase', { anonymousId: 'lapsed' }, { order_id: `lapsed-${ws.id}`, total: 5, currency: 'USD' }),
      track('purchase', { anonymousId: 'recent' }, { order_id: `recent-${ws.id}`, total: 7, currency: 'USD' }),
    ]);

    expect(await pipeline.settled(lapsed!)).toMatchObject({ status: 'delivered', sent_without_click: true, ttclid: null, click_campaign_id: null });
    expect(await sentUser(`lapsed-${ws.id}`)).toEqual({ ttp: 'ttp-lapsed' });
    expect(await pipeline.settled(recent!)).toMatchObject({ status: 'delivered', sent_without_click: false, ttclid: newClick, click_campaign_id: '1801' });
    expect(await sentUser(`recent-${ws.id}`)).toMatchObject({ ttclid: newClick, ttp: 'ttp-recent' });

    // The overview's figures, live and then from the hourly rollup, never add the two kinds together.
    const period = { from: daysAgo(1), to: daysAgo(-1), timeZone: 'UTC' };
    const delivered = async () =>
      (await pipeline.repos.conversionFigures.perDay(ws.id, period))
        .filter((count) => count.status === 'delivered')
        .map(({ sentWithoutClick, conversions }) => ({ sentWithoutClick, conversions }))
        .sort((a, b) => Number(a.sentWithoutClick) - Number(b.sentWithoutClick));
    const expected = [
      { sentWithoutClick: false, conversions: 1 },
      { sentWithoutClick: true, conversions: 1 },
    ];
    expect(await delivered()).toEqual(expected);
    const later = daysAgo(-8);
    await pipeline.repos.conversionCounts.rollUp(later);
    expect(await pipeline.database.db('conversion_counts_hourly').where({ workspace_id: ws.id, status: 'delivered', sent_without_click: true }).sum<{ sum: number }[]>({ sum: 'conversions' })).toEqual([{ sum: 1 }]);
    expect(await delivered()).toEqual(expected);
    const days = { from: daysAgo(1).toISOString().slice(0, 10), to: daysAgo(-1).toISOString().slice(0, 10), timeZone: 'UTC' };
    expect(await pipeline.repos.conversionFigures.deliveredWithoutClick(ws.id, days)).toBe(1);

    // The campaign's delivered figure holds only the click-attributed conversion; the report's note counts the other.
    await pipeline.repos.deliveredDaily.rollUp(later);
    const perCampaign = await pipeline.database.db('delivered_conversions_daily').where({ workspace_id: ws.id });
    expect(perCampaign.map((row) => [row.campaign_id, Number(row.conversions)])).toEqual([['1801', 1]]);
    const report = await createAdReportService({ repos: pipeline.repos }).report(ws.id, { level: 'campaign', from: days.from, to: days.to });
    expect(report.rows.map((row) => [row.entityId, row.deliveredConversions])).toEqual([['1801', 1]]);
    expect(report.notes).toContainEqual(expect.stringMatching(/^1 conversion of these days was sent without a click \(Settings: conversions without a click\)/));
  });
});
