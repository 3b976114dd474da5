import { parse } from 'csv-parse/sync';

export type ImportFormat = 'csv' | 'ndjson';

/** One row of a file: its number (1 for the first row after a CSV's header), its cells by column, and its text as written. */
export interface FileRow {
  row: number;
  /** Absent when the row cannot be read (`problem` says why). */
  fields?: Record<string, unknown>;
  problem?: string;
  raw: string;
}

/** `header` and `columns`: a CSV's header line as written, and the column names it holds. */
export type ImportFile = { ok: true; header?: string; columns?: string[]; rows: FileRow[] } | { ok: false; problem: string };

/** csv-parse's raw text of a record may hold the line breaks around it (a CRLF's CR, the blank lines before it). */
const withoutLineBreaks = (text: string) => text.replace(/^[\r\n]+|[\r\n]+$/g, '');

/** A CSV file with a header of column names; a row with more or fewer cells than the header is refused alone. */
function readCsv(text: string): ImportFile {
  let records: { record: string[]; raw: string }[];
  try {
    records = parse(text, { raw: true, bom: true, skip_empty_lines: true, relax_column_count: true }) as unknown as { record: string[]; raw: string }[];
  } catch (error) {
    return { ok: false, problem: `the CSV cannot be read: ${(error as Error).message}` };
  }
  const [header, ...rest] = records;
  if (header === undefined) return { ok: false, problem: 'the file is empty: a CSV file starts with a header naming its columns' };
  const columns = header.record.map((name) => name.trim());
  const rows = rest.map(({ record, raw }, index): FileRow => {
    const row = index + 1;
    if (record.length !== columns.length) return { row, problem: `has ${record.length} cells, the header ${columns.length}`, raw: withoutLineBreaks(raw) };
    return { row, fields: Object.fromEntries(columns.map((column, i) => [column, record[i]])), raw: withoutLineBreaks(raw) };
  });
  return { ok: true, header: withoutLineBreaks(header.raw), columns, rows };
}

/** One JSON object a line; blank lines are skipped. */
function readNdjson(text: string): ImportFile {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, '')).filter((line) => line.trim() !== '');
  const rows = lines.map((raw, index): FileRow => {
    const row = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { row, problem: `not JSON: ${(error as Error).message}`, raw };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { row, problem: 'not a JSON object of columns', raw };
    return { row, fields: value as Record<string, unknown>, raw };
  });
  return { ok: true, rows };
}

/** The rows of a file as written; only a CSV that cannot be parsed at all, or has no header, is refused whole. */
export function readImportFile(text: string, format: ImportFormat): ImportFile {
  return format === 'csv' ? readCsv(text) : readNdjson(text);
}

/** The body of a part of a file: its header (a CSV's) and these rows, as written. */
export function importFileText(header: string | undefined, rows: readonly FileRow[]): string {
  return `${[...(header === undefined ? [] : [header]), ...rows.map((row) => row.raw)].join('\n')}\n`;
}
