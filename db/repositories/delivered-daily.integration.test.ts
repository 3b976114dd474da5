import type { Knex } from 'knex';
import { createAdReportService } from '../../api/services/ad-report-service';
import { asPerson, personIn } from '../../test/helpers/console-client';
import { planNodes, recordStatements, type SentStatement } from '../../test/helpers/query-plans';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import type { AdLevel } from '../types';
import type { Repositories } from '.';
import type { AdReportQuery } from './ad-report';
import * as valueOnce from '../migrations/20261126170000_delivered_value_once';

let testDb: TestDatabase;
let subject: TestApp;
let repos: Repositories;
const WS = 'ws_rollup_shop';
const OTHER = 'ws_rollup_other';
const DAY_MS = 86_400_000;
const NOW = new Date();
let serial = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = buildTestApp(testDb.db);
  repos = subject.repos;
  await testDb.db('workspaces').insert([
    { id: WS, name: 'Fern shop' },
    { id: OTHER, name: 'Tea house' },
  ]);
  for (const id of [WS, OTHER]) await repos.tiktokConnections.put(id, { accessToken: 'token', advertiserId: '77', pixelCode: 'CPIXEL' });
  await zone(WS, 'Asia/Tokyo');
});
afterAll(async () => {
  await subject.app.close();
  await testDb.destroy();
});

const zone = (workspaceId: string, timeZone: string) => testDb.db('tiktok_connections').where({ workspace_id: workspaceId }).update({ advertiser_time_zone: timeZone });

interface Sale {
  at: Date;
  status?: 'delivered' | 'skipped' | 'failed' | 'pending';
  testMode?: boolean;
  ad?: [campaign: string | null, adgroup: string | null, ad: string | null];
  currency?: string | null;
  value?: string | null;
  /** Which of its rule's TikTok events the conversion is: 0 the rule's own, 1… the additional ones. */
  tiktokEvent?: [name: string, ruleEventIndex: number];
}

/** An event and its conversion, as the pipeline leaves them. */
async function sale(
  workspaceId: string,
  { at, status = 'delivered', testMode = false, ad = ['701', '702', '703'], currency = 'EUR', value = '12.5', tiktokEvent = ['CompletePayment', 0] }: Sale,
): Promise<string> {
  serial += 1;
  const [event] = await testDb.db('events')
    .insert({ workspace_id: workspaceId, message_id: `m-${serial}`, type: 'track', event_name: 'purchase', anonymous_id: `a-${serial}`, occurred_at: at, received_at: at, message: {} as never })
    .returning('id');
  const [conversion] = await testDb.db('conversions')
    .insert({
      workspace_id: workspaceId, event_row_id: (event as { id: string }).id, message_id: `m-${serial}`, source_event: 'purchase', tiktok_event: tiktokEvent[0], rule_event_index: tiktokEvent[1],
      event_id: `o-${serial}`, event_time: at, workflow_id: `wf-${serial}`, status, test_mode: testMode, currency, value: value as never,
      click_campaign_id: ad[0], click_adgroup_id: ad[1], click_ad_id: ad[2],
    } as never)
    .returning('id');
  return (conversion as { id: string }).id;
}

const daysAgo = (days: number, hourUtc = 12) => new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), NOW.getUTCDate() - days, hourUtc, 30));
const dayText = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString().slice(0, 10);

function queries(timeZone: string): AdReportQuery[] {
  const all: AdReportQuery[] = [];
  for (const level of ['campaign', 'adgroup', 'ad'] as AdLevel[]) {
    for (const granularity of ['day', 'total'] as const) {
      for (const [from, to] of [[dayText(40), dayText(-1)], [dayText(15), dayText(9)], [dayText(3), dayText(0)]] as const) {
        for (const campaignId of [undefined, '701']) {
          all.push({ advertiserId: '77', level, granularity, from, to, campaignId, timeZone, currency: 'EUR', exchangeRates: { USD: '0.9' }, limit: 10_000, offset: 0 });
        }
      }
    }
  }
  return all;
}

/** What `read` gives from the conversions alone: the rollup's zone marker removed in a transaction rolled back after. */
async function readLive<T>(read: (trx: Knex) => Promise<T>): Promise<T> {
  const trx = await testDb.db.transaction();
  try {
    await trx('delivered_conversions_daily_zones').delete();
    return await read(trx);
  } finally {
    await trx.rollback();
  }
}

/** Every report as the conversions alone give it. */
const liveReports = (workspaceId: string, timeZone: string) => readLive((trx) => reports(workspaceId, timeZone, trx));

async function reports(workspaceId: string, timeZone: string, executor: Knex = testDb.db) {
  const answers = [];
  for (const q of queries(timeZone)) answers.push(await repos.adReport.rowsAndTotals(workspaceId, q, executor));
  return answers;
}

const rolledDays = async (workspaceId: string) =>
  Number((await testDb.db('delivered_conversions_daily').where({ workspace_id: workspaceId }).count<{ count: string }[]>({ count: '*' }))[0]?.count);

describe('the daily rollup of delivered conversions behind the ad reports', () => {
  it('leaves every report as the live computation gives it, before and after the rollup, after late changes and after a change of zone', async () => {
    // 15:30 UTC is past midnight in Tokyo: these sales fall on the next day there.
    for (const days of [35, 20, 12, 10, 9, 2, 0]) {
      await sale(WS, { at: daysAgo(days) });
      await sale(WS, { at: daysAgo(days, 15), currency: 'USD', value: '3.3333' });
      await sale(WS, { at: daysAgo(days, 16), ad: ['701', '702', '704'], currency: null, value: null });
      await sale(WS, { at: daysAgo(days, 1), ad: ['801', '802', null] });
      await sale(WS, { at: daysAgo(days), ad: [null, null, null] });
      await sale(WS, { at: daysAgo(days), testMode: true });
      await sale(WS, { at: daysAgo(days), status: 'skipped' });
    }
    await sale(OTHER, { at: daysAgo(20) });
    const late = await sale(WS, { at: daysAgo(12, 20), status: 'failed', currency: 'JPY', value: '900' });

    const before = await reports(WS, 'Asia/Tokyo');
    expect(before).toEqual(await liveReports(WS, 'Asia/Tokyo'));
    expect(before.find((r) => r.rows.length > 2)?.totals.deliveredConversions).toBeGreaterThan(0);

    expect(await repos.deliveredDaily.rollUp(NOW)).toEqual({ rolledUpAgain: 0, workspacesRebuilt: 2 });
    expect(await rolledDays(WS)).toBeGreaterThan(0);
    expect(await reports(WS, 'Asia/Tokyo')).toEqual(before);
    // A day later the line has moved on a day: the days it passed are rolled up and the figures stay the same.
    expect(await repos.deliveredDaily.rollUp(new Date(NOW.getTime() + DAY_MS))).toEqual({ rolledUpAgain: 0, workspacesRebuilt: 0 });
    expect(await reports(WS, 'Asia/Tokyo')).toEqual(before);

    // A failed conversion of a rolled-up day is delivered by a retry (recorded in its history), and an old order is imported.
    await testDb.db('conversions').where({ id: late }).update({ status: 'delivered' });
    await testDb.db('conversion_history').insert({ conversion_id: late, step: 'outcome', detail: { status: 'delivered' } });
    await sale(WS, { at: daysAgo(30), currency: 'USD', value: '40' });
    const changed = await liveReports(WS, 'Asia/Tokyo');
    expect(changed).not.toEqual(before);
    await repos.deliveredDaily.rollUp(new Date(NOW.getTime() + DAY_MS));
    expect(await repos.deliveredDaily.rollUp(new Date(NOW.getTime() + DAY_MS))).toMatchObject({ rolledUpAgain: 2 });
    expect(await reports(WS, 'Asia/Tokyo')).toEqual(changed);

    // TikTok reports another zone for the advertiser: read live until the job rolls the workspace up again in it.
    await zone(WS, 'America/New_York');
    const newYork = await liveReports(WS, 'America/New_York');
    expect(await reports(WS, 'America/New_York')).toEqual(newYork);
    expect(await repos.deliveredDaily.rollUp(new Date(NOW.getTime() + DAY_MS))).toMatchObject({ workspacesRebuilt: 1 });
    expect(await reports(WS, 'America/New_York')).toEqual(newYork);
    expect(await testDb.db('delivered_conversions_daily_zones').orderBy('workspace_id')).toEqual([
      { workspace_id: OTHER, time_zone: 'UTC' },
      { workspace_id: WS, time_zone: 'America/New_York' },
    ]);
  });

  it('exports a report as CSV: every row in the order of the report, separators quoted, formulas kept as text, figures as numbers', async () => {
    const names: Record<string, string> = { '703': '=HYPERLINK("https://x.example")', '704': 'Spring, "big" sale', '705': 'two\r\nlines', '706': '@here' };
    await testDb.db('ad_entities').insert(
      Object.entries(names).map(([id, name]) => ({ workspace_id: WS, level: 'ad', entity_id: id, advertiser_id: '77', campaign_id: '701', adgroup_id: '702', name })),
    );
    await testDb.db('ad_stats_daily').insert([
      { workspace_id: WS, level: 'ad', entity_id: '703', stat_date: dayText(10), advertiser_id: '77', campaign_id: '701', adgroup_id: '702', spend: '-1.5', impressions: 400, clicks: 3, conversions: 1, conversion_value: '9.99' },
      { workspace_id: WS, level: 'ad', entity_id: '705', stat_date: dayText(50), advertiser_id: '77', campaign_id: '701', adgroup_id: '702', spend: '2.25', impressions: 0, clicks: 0, conversions: 0, conversion_value: '0' },
      { workspace_id: WS, level: 'ad', entity_id: '706', stat_date: dayText(30), advertiser_id: '77', campaign_id: '701', adgroup_id: '702', spend: '7', impressions: 3, clicks: 1, conversions: null, conversion_value: null },
    ]);
    const service = createAdReportService({ repos });
    const request = { level: 'ad' as const, granularity: 'day' as const, from: dayText(70), to: dayText(-1) };
    const { rows } = await service.report(WS, { ...request, limit: 10_000 });
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining(Object.values(names)));

    const person = asPerson(subject.app, await personIn(subject.app, WS, 'fern@shop.example', 'viewer'));
    const csv = await person('GET', `workspaces/${WS}/ads/report.csv?level=ad&granularity=day&from=${request.from}&to=${request.to}`);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="signalbox-ads-${request.from}-${request.to}.csv"`);
    const header =
      'Date,Level,Name,ID,Campaign ID,Ad group ID,Spend,Impressions,Clicks,CPC,CTR (%),Conversions (TikTok),Conversion value (TikTok),ROAS (TikTok),Delivered conversions (Signalbox),Delivered value (Signalbox),ROAS (Signalbox)';
    // The row's field under each of the header's columns.
    const fields = ['date', 'level', 'name', 'entityId', 'campaignId', 'adgroupId', 'spend', 'impressions', 'clicks', 'cpc', 'ctr', 'conversions', 'conversionValue', 'roas', 'deliveredConversions', 'deliveredValue', 'deliveredRoas'];
    // Names and IDs are text (a formula kept as text with a leading '), figures are numbers, a negative one too.
    const textFields = new Set(['date', 'level', 'name', 'entityId', 'campaignId', 'adgroupId']);
    const cell = (field: string, value: unknown) => {
      const text = value === null ? '' : String(value);
      const kept = textFields.has(field) && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
      return /[",\n\r]/.test(kept) ? `"${kept.replace(/"/g, '""')}"` : kept;
    };
    const line = (row: object) => `${fields.map((field) => cell(field, (row as Record<string, unknown>)[field])).join(',')}\r\n`;
    expect(csv.body).toBe(`${header}\r\n${rows.map(line).join('')}`);
    expect(csv.body).toContain(`,ad,"'=HYPERLINK(""https://x.example"")",703,701,702,-1.5,400,3,`);
    expect(csv.body).toContain(`,ad,'@here,706,701,702,7,3,1,`);
    expect(csv.body).toContain(`,ad,"two\r\nlines",705,701,702,2.25,0,0,`);

    // Read a day at a time in pages of 4 rows (two windows in flight, a window running past its page), the file is the same.
    const paged = await createAdReportService({ repos, exportPageRows: 4 }).csv(WS, request);
    let text = '';
    for await (const page of paged.pages) text += page;
    expect(text).toBe(csv.body);
  });

  it('exports the same file whatever row a page ends on: every level, by day and totalled, with unknown campaigns and ad groups', async () => {
    // Ads whose campaign (and ad group) nobody knows, sorted after the known ones of the same day.
    await sale(WS, { at: daysAgo(9), ad: [null, null, '905'] });
    await sale(WS, { at: daysAgo(9, 13), ad: [null, '906', '907'] });
    await repos.deliveredDaily.rollUp(new Date(NOW.getTime() + DAY_MS)); // their day was rolled up: it is again
    const exported = async (exportPageRows: number | undefined, request: { level: AdLevel; granularity: 'day' | 'total'; from: string; to: string }) => {
      let text = '';
      for await (const page of (await createAdReportService({ repos, exportPageRows }).csv(WS, request)).pages) text += page;
      return text;
    };
    for (const level of ['campaign', 'adgroup', 'ad'] as const) {
      for (const granularity of ['day', 'total'] as const) {
        const request = { level, granularity, from: dayText(40), to: dayText(-1) };
        const whole = await exported(undefined, request);
        // More than one row under the header, so that a page starts after another.
        expect(whole.split('\r\n').length - 2).toBeGreaterThan(1);
        // A page of one row: each page starts after the row before it.
        expect(await exported(1, request)).toBe(whole);
      }
    }
    const ads = await exported(undefined, { level: 'ad', granularity: 'total', from: dayText(40), to: dayText(-1) });
    expect(ads).toMatch(/,ad,,905,,,/);
    expect(ads).toMatch(/,ad,,907,,906,/);
  });

  it("counts an order sent as two TikTok events as two conversions but its value once, live, rolled up, and in rows the migration corrects", async () => {
    const shop = 'ws_rollup_orders';
    await testDb.db('workspaces').insert({ id: shop, name: 'Moss shop' });
    await repos.tiktokConnections.put(shop, { accessToken: 'token', advertiserId: '77', pixelCode: 'CPIXEL' });
    const order = { at: daysAgo(20), currency: 'USD', value: '45', ad: ['901', '902', '903'] as Sale['ad'] };
    await sale(shop, { ...order, tiktokEvent: ['CompletePayment', 0] });
    await sale(shop, { ...order, tiktokEvent: ['PlaceAnOrder', 1] });
    // Another order whose own event was skipped: its additional event is a delivered conversion, and adds no value.
    await sale(shop, { ...order, value: '30', status: 'skipped', tiktokEvent: ['CompletePayment', 0] });
    await sale(shop, { ...order, value: '30', tiktokEvent: ['PlaceAnOrder', 1] });
    await testDb.db('ad_stats_daily').insert({
      workspace_id: shop, level: 'ad', entity_id: '903', stat_date: dayText(20), advertiser_id: '77', campaign_id: '901', adgroup_id: '902', spend: '15', impressions: 100, clicks: 2, conversions: 1, conversion_value: '45',
    });
    const q: AdReportQuery = { advertiserId: '77', level: 'ad', granularity: 'total', from: dayText(40), to: dayText(0), timeZone: 'UTC', currency: 'USD', exchangeRates: {}, limit: 10, offset: 0 };
    const report = async () => (await repos.adReport.rowsAndTotals(shop, q)).totals;
    const once = { deliveredConversions: 3, deliveredValues: { USD: '45' }, deliveredValue: '45', deliveredRoas: '3', conversionValue: '45', roas: '3' };

    expect(await report()).toMatchObject(once);
    await repos.deliveredDaily.rollUp(new Date(NOW.getTime() + DAY_MS));
    const rolled = () => testDb.db('delivered_conversions_daily').where({ workspace_id: shop }).select('conversions', testDb.db.raw('value::text AS value'));
    expect(await rolled()).toEqual([{ conversions: '3', value: '45' }]);
    expect(await report()).toMatchObject(once);

    // A row rolled up before this release summed every event's value; the migration recomputes it, and only it.
    await testDb.db('delivered_conversions_daily').where({ workspace_id: shop }).update({ value: '120' });
    const others = await testDb.db('delivered_conversions_daily').whereNot({ workspace_id: shop }).orderBy(['workspace_id', 'day', 'ad_id', 'currency']);
    await testDb.db.transaction((trx) => valueOnce.up(trx));
    expect(await rolled()).toEqual([{ conversions: '3', value: '45' }]);
    expect(await report()).toMatchObject(once);
    await testDb.db.transaction((trx) => valueOnce.down(trx));
    expect(await rolled()).toEqual([{ conversions: '3', value: '120' }]);
    await testDb.db.transaction((trx) => valueOnce.up(trx));
    expect(await rolled()).toEqual([{ conversions: '3', value: '45' }]);
    expect(await testDb.db('delivered_conversions_daily').whereNot({ workspace_id: shop }).orderBy(['workspace_id', 'day', 'ad_id', 'currency'])).toEqual(others);
  });

  it('reads from the conversions only the days after the rollup, however many days are rolled up', async () => {
    const busy = 'ws_rollup_busy';
    await testDb.db('workspaces').insert({ id: busy, name: 'Busy shop' });
    // 40 delivered sales a day, on each of the last 30 days.
    await testDb.db.raw(
      `INSERT INTO events (workspace_id, message_id, type, event_name, anonymous_id, occurred_at, received_at, message)
       SELECT ?, 'busy-' || g, 'track', 'purchase', 'a-' || g, t.at, t.at, '{}'::jsonb
       FROM generate_series(0, 1199) g CROSS JOIN LATERAL (SELECT ?::timestamptz - (g / 40) * interval '1 day' - (g % 40) * interval '1 minute' AS at) t`,
      [busy, daysAgo(0)],
    );
    await testDb.db.raw(
      `INSERT INTO conversions (workspace_id, event_row_id, event_received_on, message_id, source_event, tiktok_event, event_id, event_time, workflow_id, status, currency, value,
                                click_campaign_id, click_adgroup_id, click_ad_id)
       SELECT workspace_id, id, received_on, message_id, 'purchase', 'CompletePayment', message_id, occurred_at, 'wf-' || message_id, 'delivered', 'EUR', 1, '701', '702', '703'
       FROM events WHERE workspace_id = ?`,
      [busy],
    );
    await testDb.db.raw('ANALYZE conversions');
    await repos.deliveredDaily.rollUp(NOW);
    const q: AdReportQuery = { advertiserId: '77', level: 'campaign', granularity: 'total', from: dayText(28), to: dayText(0), timeZone: 'UTC', currency: 'EUR', exchangeRates: {}, limit: 10, offset: 0 };

    const { result, statements } = await recordStatements(testDb.db, () => repos.adReport.rowsAndTotals(busy, q));
    expect(result.totals.deliveredConversions).toBe(29 * 40);
    expect(result.totals).toEqual((await readLive((trx) => repos.adReport.rowsAndTotals(busy, q, trx))).totals);

    const report = statements.find((statement) => statement.sql.includes('delivered_by_currency')) as SentStatement;
    const scans = (await planNodes(testDb.db, report, { analyze: true })).filter((node) => node['Relation Name'] === 'conversions');
    const conversionsRead = scans.reduce((sum, node) => sum + (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0)) * Number(node['Actual Loops']), 0);
    // The line is at most a day and an hour back: its day and the one before it (a zone's day reaches into it).
    expect(scans.length).toBeGreaterThan(0);
    expect(conversionsRead).toBeLessThanOrEqual(3 * 40);
  });
});
