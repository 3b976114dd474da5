import { checkMessage } from '../../sdk/src/rules/index.js';
import { deriveEventId } from '../event-id';
import { happenedOffline, readLead } from '../event-source';
import { readEmails, readExternalIds, readPhones, type TrackedMessage } from '../message';
import { importFileText, readImportFile } from './import-file';
import { importMessage, importMessageId } from './import-message';
import { checkImportRow, headerProblem, repeatedRowKeys, type ImportKind, type ImportRow } from './import-rows';

const NOW = Date.parse('2026-12-01T12:00:00Z');

function checked(kind: ImportKind, fields: Record<string, unknown>): ImportRow {
  const check = checkImportRow(kind, fields, NOW);
  if (!check.ok) throw new Error(check.problems.join('; '));
  return check.row;
}

describe('a row of past offline sales', () => {
  it('needs a row key and a time with a zone; the event defaults to Order Completed and the value is read as an amount', () => {
    const row = checked('offline_sales', { row_key: ' s-1 ', occurred_at: '2026-11-30T14:05:00Z', order_id: 'POS-1', value: '59.90', currency: 'usd', store: '' });
    expect(row).toEqual({ rowKey: 's-1', occurredAt: '2026-11-30T14:05:00Z', event: 'Order Completed', value: 59.9, text: { row_key: 's-1', occurred_at: '2026-11-30T14:05:00Z', order_id: 'POS-1', value: '59.90', currency: 'usd' } });
  });

  it('names every problem of a row by its column', () => {
    const check = checkImportRow('offline_sales', { occurred_at: '30/11/2026', value: '12,50', currency: 'dollars', email: 'jo.example.com', ordr_id: 'x' }, NOW);
    expect(check).toEqual({
      ok: false,
      problems: [
        '"ordr_id" is not a column of offline_sales (row_key, occurred_at, event, order_id, value, currency, email, phone, external_id, user_id, store)',
        'row_key: required',
        'occurred_at: must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z',
        'value: "12,50" is not an amount (a number of zero or more, such as 12.5)',
        'currency: "dollars" is not a three-letter ISO 4217 code, such as USD',
        'email: "jo.example.com" is not an email address',
      ],
    });
  });

  it('refuses a time in the future and a cell that is not text, keeping the row key for the report', () => {
    expect(checkImportRow('offline_sales', { row_key: 7, occurred_at: '2026-12-02T12:00:00Z', order_id: { id: 1 } }, NOW)).toEqual({
      ok: false,
      rowKey: '7',
      problems: ['order_id: must be text or a number', 'occurred_at: is in the future'],
    });
  });
});

describe("a CSV file's header", () => {
  it("names the columns the kind does not have, and the required ones it lacks", () => {
    expect(headerProblem('lead_stages', ['row_key', 'occurred_at', 'lead_id', 'stage', 'email'])).toBeUndefined();
    expect(headerProblem('lead_stages', ['row_key', 'occurred_at', 'lead'])).toBe(
      'the header: "lead" is not a column of lead_stages (row_key, occurred_at, lead_id, stage, lead_event_source, email, phone, external_id, user_id, value, currency)',
    );
    expect(headerProblem('lead_stages', ['row_key', 'occurred_at'])).toBe('the header has no lead_id, stage columns, which lead_stages need');
  });
});

describe('a row of lead stages', () => {
  it('needs the lead and its stage, which is the event', () => {
    expect(checkImportRow('lead_stages', { row_key: 'l-1', occurred_at: '2026-11-30T14:05:00+01:00' }, NOW)).toEqual({ ok: false, rowKey: 'l-1', problems: ['lead_id: required', 'stage: required'] });
    expect(checked('lead_stages', { row_key: 'l-1', occurred_at: '2026-11-30T14:05:00+01:00', lead_id: 'L-9', stage: 'Qualified' }).event).toBe('Qualified');
  });
});

describe('the message a row becomes', () => {
  it('is a track message the ingest rules accept, offline, with the match keys where ingest reads them and the order as its event_id', () => {
    const row = checked('offline_sales', { row_key: 's-1', occurred_at: '2026-11-30T14:05:00Z', order_id: 'POS-1', value: '59.90', currency: 'usd', email: 'jo@example.com', phone: '+14155550100', external_id: 'card-7', store: 'Lyon' });
    const check = checkMessage(importMessage('offline_sales', row));
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    const message = check.message as unknown as TrackedMessage;
    expect(message).toMatchObject({ type: 'track', event: 'Order Completed', timestamp: '2026-11-30T14:05:00Z', messageId: importMessageId('offline_sales', 's-1'), anonymousId: importMessageId('offline_sales', 's-1') });
    expect(message.properties).toEqual({ order_id: 'POS-1', store: 'Lyon', value: 59.9, currency: 'USD', event_id: 'POS-1' });
    expect([readEmails(message), readPhones(message), readExternalIds(message)]).toEqual([['jo@example.com'], ['+14155550100'], ['card-7']]);
    expect(happenedOffline(message)).toBe(true);
    expect(deriveEventId(message, false)).toBe('POS-1');
  });

  it('is the same message however often the row is imported, and another for another kind or key', () => {
    expect(importMessageId('offline_sales', 's-1')).toBe(importMessageId('offline_sales', 's-1'));
    expect(new Set([importMessageId('offline_sales', 's-1'), importMessageId('lead_stages', 's-1'), importMessageId('offline_sales', 's-2')]).size).toBe(3);
  });

  it("of a lead stage carries the CRM's lead, its user, and <lead>:<stage> as event_id", () => {
    const row = checked('lead_stages', { row_key: 'l-1', occurred_at: '2026-11-30T14:05:00Z', lead_id: 'L-9', stage: 'Qualified', lead_event_source: 'HubSpot', user_id: 'u-9' });
    const message = importMessage('lead_stages', row) as unknown as TrackedMessage;
    expect(readLead(message)).toEqual({ lead_id: 'L-9', lead_event_source: 'HubSpot' });
    expect([message.userId, message.anonymousId, happenedOffline(message), deriveEventId(message, false)]).toEqual(['u-9', undefined, false, 'L-9:Qualified']);
  });
});

describe('files', () => {
  it('reads a CSV with quoted cells, refusing alone a row whose cells do not match the header, and keeps each row as written', () => {
    const file = readImportFile('\ufeffrow_key,occurred_at,email\r\na,2026-11-30T14:05:00Z,"jo@example.com"\r\nb,"2026-11-30T14:05:00Z"\r\n\r\nc,"x, ""y""",z\r\n', 'csv');
    if (!file.ok) throw new Error(file.problem);
    expect(file.columns).toEqual(['row_key', 'occurred_at', 'email']);
    expect(file.rows.map((row) => [row.row, row.fields?.row_key, row.problem])).toEqual([
      [1, 'a', undefined],
      [2, undefined, 'has 2 cells, the header 3'],
      [3, 'c', undefined],
    ]);
    expect(file.rows[2]?.fields?.occurred_at).toBe('x, "y"');
    const part = readImportFile(importFileText(file.header, file.rows.slice(2)), 'csv');
    expect(part.ok && part.rows.map((row) => row.fields)).toEqual([{ row_key: 'c', occurred_at: 'x, "y"', email: 'z' }]);
  });

  it('refuses a CSV whose quotes do not close, whole', () => {
    expect(readImportFile('row_key,occurred_at\na,"2026\n', 'csv')).toEqual({ ok: false, problem: expect.stringMatching(/^the CSV cannot be read: /) });
  });

  it('reads NDJSON line by line, skipping blank lines and refusing alone a line that is not an object', () => {
    const file = readImportFile('{"row_key":"a","value":12.5}\n\n[1]\n{oops\n', 'ndjson');
    expect(file.ok && file.rows.map((row) => [row.row, row.fields, row.problem?.slice(0, 8)])).toEqual([
      [1, { row_key: 'a', value: 12.5 }, undefined],
      [2, undefined, 'not a JS'],
      [3, undefined, 'not JSON'],
    ]);
  });

  it('finds the rows repeating an earlier row key, numbered as the file does', () => {
    const rows = [
      { row: 1, fields: { row_key: 'a' } },
      { row: 2, fields: { row_key: ' a' } },
      { row: 3 },
      { row: 4, fields: { row_key: 'b' } },
    ];
    const repeated = repeatedRowKeys(rows, 101);
    expect([...repeated].map(([row, repeat]) => [row.row, repeat])).toEqual([[2, { rowKey: 'a', problem: 'row_key: "a" is row 101\'s too (a row key is unique within a file)' }]]);
  });
});
