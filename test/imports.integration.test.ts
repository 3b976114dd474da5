import type { FastifyInstance } from 'fastify';
import { createBatchRecorder } from '../api/ingest/record-batch';
import { importReportView, type ImportReportView } from '../contract/import-views';
import { createDatabase } from '../db/knex';
import { createIngestWriteRepository } from '../db/repositories/ingest-writes';
import type { Workspace } from '../db/repositories/workspaces';
import type { ConversionRow } from '../db/types';
import { FAKE_TIKTOK_CRM_EVENT_SET_ID, FAKE_TIKTOK_OFFLINE_EVENT_SET_ID } from '../devstack/tiktok-fake';
import { sha256Hex } from '../domain/hashing';
import { runAgainst } from './helpers/cli';
import { closeAll } from './helpers/close-all';
import { daysAgo } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Issue 45's import: a file of past offline sales or lead stages through the settings API and the CLI, each row
 * checked and reported, stored by the ingest recorder and sent to TikTok (read from the fake) once, however often the
 * file is imported, even after the recorder's look-back for repeated messages.
 */
jest.setTimeout(120_000);

const DAY_MS = 86_400_000;

let pipeline: TestPipeline;
let app: FastifyInstance;
let workspace: Workspace;
let url: string;

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  workspace = await pipeline.workspace({
    rules: [
      { sourceEvent: 'Order Completed', valueSource: 'order_total' },
      { sourceEvent: 'LeadQualified', tiktokEvent: 'LeadQualified', destination: 'crm' },
    ],
  });
  await pipeline.database.db('tiktok_connections').where({ workspace_id: workspace.id }).update({ offline_event_set_id: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, crm_event_set_id: FAKE_TIKTOK_CRM_EVENT_SET_ID });
  ({ app } = buildTestApp(pipeline.database.db, { repos: pipeline.repos, recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions }));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(() =>
  closeAll(
    () => app?.close(),
    () => pipeline?.close(),
  ),
);

async function post(target: FastifyInstance, kind: string, body: string, contentType = 'text/csv', firstRow?: number): Promise<{ statusCode: number; json: () => ImportReportView & { message?: string } }> {
  const query = new URLSearchParams({ kind, ...(firstRow === undefined ? {} : { firstRow: String(firstRow) }) });
  return target.inject({ method: 'POST', url: `/admin/workspaces/${workspace.id}/imports?${query}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': contentType }, payload: body });
}

const conversionsOf = (eventIds: readonly string[]) => pipeline.database.db<ConversionRow>('conversions').where({ workspace_id: workspace.id }).whereIn('event_id', eventIds).orderBy('event_id');

async function delivered(eventIds: readonly string[]): Promise<ConversionRow[]> {
  const conversions = await conversionsOf(eventIds);
  return Promise.all(conversions.map((c) => pipeline.settled(c)));
}

async function receivedEventIds(eventIds: readonly string[]): Promise<string[]> {
  const { events } = await pipeline.fake.receivedEvents();
  return events.map((e) => e.eventId as string).filter((id) => eventIds.includes(id)).sort();
}

describe('importing past offline sales', () => {
  const yesterday = daysAgo(1).toISOString();
  const csv = [
    'row_key,occurred_at,order_id,value,currency,email,phone,store',
    `s-1,${yesterday},IMP-1,59.90,usd,jo@example.com,,Lyon`,
    `s-2,${yesterday},IMP-2,"1200",EUR,,+33612345678,Paris`,
    's-3,30/11/2026,IMP-3,10,USD,al@example.com,,',
    `,${yesterday},IMP-4,12;50,USD,,,`,
    `s-1,${yesterday},IMP-5,5,USD,ed@example.com,,`,
    `s-6,${yesterday},IMP-6,5,USD`,
  ].join('\n');

  it('stores the good rows, names each refused row and why, and sends the sales to the Offline Event Set under their order IDs', async () => {
    const answer = await post(app, 'offline_sales', csv);
    expect(answer.statusCode).toBe(200);
    const report = importReportView.parse(answer.json());
    expect(report).toMatchObject({ kind: 'offline_sales', rows: 6, stored: 2, alreadyImported: 0, refused: 4, conversions: 2, repeatedConversions: 0, unmapped: { rows: 0, events: [] }, tooOld: 0 });
    expect(report.refusedRows).toEqual([
      { row: 3, rowKey: 's-3', problems: ['occurred_at: must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z'] },
      { row: 4, problems: ['row_key: required', 'value: "12;50" is not an amount (a number of zero or more, such as 12.5)'] },
      { row: 5, rowKey: 's-1', problems: ['row_key: "s-1" is row 1\'s too (a row key is unique within a file)'] },
      { row: 6, problems: ['has 5 cells, the header 8'] },
    ]);

    const sales = await delivered(['IMP-1', 'IMP-2']);
    expect(sales.map((c) => [c.event_id, c.status, c.event_source, c.tiktok_event])).toEqual([
      ['IMP-1', 'delivered', 'offline', 'CompletePayment'],
      ['IMP-2', 'delivered', 'offline', 'CompletePayment'],
    ]);
    const { events } = await pipeline.fake.receivedEvents();
    const first = events.find((e) => e.eventId === 'IMP-1');
    expect(first).toMatchObject({ eventSource: 'offline', eventSourceId: FAKE_TIKTOK_OFFLINE_EVENT_SET_ID, event: 'CompletePayment' });
    expect(first?.payload).toMatchObject({ event_time: Math.floor(Date.parse(yesterday) / 1000), properties: { value: 59.9, currency: 'USD' }, user: { email: sha256Hex('jo@example.com') } });
  });

  it('stores and sends nothing twice when the file is imported again, that day or days later, through the CLI', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-import-'));
    const file = path.join(dir, 'sales.csv');
    writeFileSync(file, csv);
    const again = await runAgainst(url, ['import', workspace.id, file, '--kind', 'offline-sales']);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/already imported: +2 \(the same row keys/);
    expect(again.stdout).toMatch(/conversions: +0 to send/);
    expect(again.stdout).toContain('row 6: has 5 cells, the header 8');
    const elsewhere = await runAgainst(url, ['import', 'ws_missing', file, '--kind', 'offline-sales']);
    expect(elsewhere.code).toBe(1);
    // Row 5 repeats row 1's key, so the file goes in two parts, both in flight: either may be the one named.
    expect(elsewhere.stderr).toMatch(/^Error: (rows 1-4|row 6): workspace ws_missing does not exist \(the parts answered before were stored: importing the file again stores each row once\)$/);

    // Three days later the recorder no longer looks for the messages, but the import remembers its rows: none is stored
    // again. (Its own pool: ingest's statements are prepared per connection and day.)
    const laterDb = createDatabase({ url: pipeline.database.url, poolMax: 2 });
    const later = buildTestApp(laterDb, {
      repos: pipeline.repos,
      recordBatch: createBatchRecorder({ ...pipeline.repos, ingestWrites: createIngestWriteRepository(laterDb, { now: () => new Date(Date.now() + 3 * DAY_MS) }) }),
      startConversions: pipeline.startConversions,
    }).app;
    try {
      const report = importReportView.parse((await post(later, 'offline_sales', csv)).json());
      expect(report).toMatchObject({ stored: 0, alreadyImported: 2, conversions: 0, repeatedConversions: 0 });
    } finally {
      await closeAll(
        () => later.close(),
        () => laterDb.destroy(),
      );
    }
    expect(await conversionsOf(['IMP-1', 'IMP-2'])).toHaveLength(2);
    const stored = await pipeline.database.db('events').where({ workspace_id: workspace.id }).whereLike('message_id', 'import-%').count<{ count: string }[]>('* as count');
    expect(Number(stored[0].count)).toBe(2);
    expect(await receivedEventIds(['IMP-1', 'IMP-2'])).toEqual(['IMP-1', 'IMP-2']);
  });

  it('says which rows no rule sends and which are too old for TikTok, and refuses a body it cannot read, naming why', async () => {
    const ndjson = [
      JSON.stringify({ row_key: 'v-1', occurred_at: yesterday, event: 'Store Visit', email: 'vi@example.com' }),
      JSON.stringify({ row_key: 'v-2', occurred_at: daysAgo(40).toISOString(), order_id: 'IMP-OLD', value: 3, email: 'ol@example.com' }),
      JSON.stringify({ row_key: 'v-3', occurred_at: yesterday, ordr_id: 'x' }),
    ].join('\n');
    const report = importReportView.parse((await post(app, 'offline_sales', ndjson, 'application/x-ndjson', 101)).json());
    expect(report).toMatchObject({ rows: 3, stored: 2, refused: 1, unmapped: { rows: 1, events: ['Store Visit'] }, tooOld: 1, conversions: 1 });
    expect(report.refusedRows[0]?.row).toBe(103);
    expect((await delivered(['IMP-OLD']))[0]).toMatchObject({ status: 'skipped', reason: 'expired' });

    const unknownColumn = await post(app, 'offline_sales', 'row_key,occurred_at,total\na,2026-11-30T00:00:00Z,1');
    expect([unknownColumn.statusCode, unknownColumn.json().message]).toEqual([400, 'the header: "total" is not a column of offline_sales (row_key, occurred_at, event, order_id, value, currency, email, phone, external_id, user_id, store)']);
    const json = await post(app, 'offline_sales', '{}', 'application/json');
    expect([json.statusCode, json.json().message]).toEqual([415, 'Content-Type must be text/csv or application/x-ndjson, not application/json']);
    const kind = await post(app, 'sales', csv);
    expect([kind.statusCode, kind.json().message]).toEqual([400, 'kind must be one of offline_sales, lead_stages']);
    const rows = await post(app, 'offline_sales', `${JSON.stringify({ row_key: 'x' })}\n`.repeat(10_001), 'application/x-ndjson');
    expect([rows.statusCode, rows.json().message]).toEqual([413, '10,001 rows in one request, over 10,000: send the file in parts, with firstRow']);
    expect((await post(app, 'offline_sales', `row_key\n${'x'.repeat(6 * 1_048_576)}\n`)).statusCode).toBe(413);
  });
});

describe('importing lead stages', () => {
  it('sends each stage to the CRM Event Set with its lead, once per lead and stage', async () => {
    const at = daysAgo(2).toISOString();
    const csv = ['row_key,occurred_at,lead_id,stage,lead_event_source,email', `l-1,${at},L-77,LeadQualified,HubSpot,le@example.com`, `l-2,${at},L-78,LeadQualified,HubSpot,`].join('\n');
    const report = importReportView.parse((await post(app, 'lead_stages', csv)).json());
    expect(report).toMatchObject({ stored: 2, refused: 0, conversions: 2 });
    const leads = await delivered(['L-77:LeadQualified', 'L-78:LeadQualified']);
    expect(leads.map((c) => [c.event_id, c.status, c.event_source, c.reason])).toEqual([
      ['L-77:LeadQualified', 'delivered', 'crm', null],
      ['L-78:LeadQualified', 'skipped', 'crm', 'no_person_keys'],
    ]);
    const { events } = await pipeline.fake.receivedEvents();
    expect(events.find((e) => e.eventId === 'L-77:LeadQualified')?.payload).toMatchObject({ lead: { lead_id: 'L-77', lead_event_source: 'HubSpot' } });
  });
});
