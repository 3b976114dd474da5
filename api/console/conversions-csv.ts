import type { Repositories } from '../../db/repositories';
import { CONVERSION_SOURCE_NAMES } from '../../contract/source-names';
import type { ConversionRow } from '../../db/types';
import { reasonHelp } from '../../domain/reason-help';
import { csvLine } from '../http/csv';
import { searchOf, type ConversionFilter } from './conversion-filter';

/** Rows read per query while the file is written. */
const EXPORT_PAGE_ROWS = 500;

/** `2026-11-28 07:47:12` in the zone asked, as a spreadsheet reads a date and time. */
function localTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(at);
}

/** The reason, TikTok's code and a delivery without a click in words, as the table says them. */
function reasonWords(row: ConversionRow): string {
  const why = row.reason === null ? (row.tiktok_code === null ? null : `TikTok code ${row.tiktok_code}`) : (reasonHelp(row.reason)?.label ?? row.reason);
  return [why, row.sent_without_click ? 'sent without a click' : null].filter((part) => part !== null).join(' · ');
}

/**
 * The Conversions table of a filter as CSV: its columns, header first, newest event first, read a page at a time so
 * that an export of any size is written as it is read.
 */
export async function* conversionsCsv(repos: Repositories, workspaceId: string, filter: ConversionFilter, timeZone: string): AsyncGenerator<string> {
  yield csvLine([`When (${timeZone})`, 'Status', 'Reason', 'TikTok event', 'Your event', 'Order or event ID', 'Source', 'Value', 'Currency', 'Test mode', 'Conversion ID']);
  let before: { eventTime: Date; id: string } | undefined;
  for (;;) {
    const rows = await repos.conversionSearch.search(workspaceId, {
      ...searchOf(filter),
      limit: EXPORT_PAGE_ROWS,
      before,
    });
    yield rows
      .map((row) =>
        csvLine([localTime(row.event_time, timeZone), row.status, reasonWords(row), row.tiktok_event, row.source_event, row.event_id, CONVERSION_SOURCE_NAMES[row.event_source], row.value, row.currency, row.test_mode ? 'yes' : 'no', row.id]),
      )
      .join('');
    const last = rows.at(-1);
    if (rows.length < EXPORT_PAGE_ROWS || last === undefined) return;
    before = { eventTime: last.event_time, id: last.id };
  }
}
