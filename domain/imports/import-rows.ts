import { parseAmount } from '../../sdk/src/rules/conversion-value.js';
import { MAX_NAME_LENGTH } from '../../sdk/src/rules/limits.js';
import { parseTimestamp, timestampProblem } from '../../sdk/src/rules/timestamp.js';

/** What a file of past events holds: sales made offline (in a store, by phone), or the stages a CRM's leads reached. */
export const IMPORT_KINDS = ['offline_sales', 'lead_stages'] as const;

export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The columns of each kind, in the order the documentation lists them. */
export const IMPORT_COLUMNS: Record<ImportKind, readonly string[]> = {
  offline_sales: ['row_key', 'occurred_at', 'event', 'order_id', 'value', 'currency', 'email', 'phone', 'external_id', 'user_id', 'store'],
  lead_stages: ['row_key', 'occurred_at', 'lead_id', 'stage', 'lead_event_source', 'email', 'phone', 'external_id', 'user_id', 'value', 'currency'],
};

/** The columns every row of the kind must fill. */
export const REQUIRED_COLUMNS: Record<ImportKind, readonly string[]> = {
  offline_sales: ['row_key', 'occurred_at'],
  lead_stages: ['row_key', 'occurred_at', 'lead_id', 'stage'],
};

/** The event an offline sale becomes when its row names none: Segment's, which `rules put` sends as CompletePayment. */
export const DEFAULT_SALE_EVENT = 'Order Completed';

/** A row's time may run ahead of the importer's clock by this much (clocks differ); later is a mistake. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** Characters of a row key, an order ID, a lead ID or a store (a CRM's or a till's own IDs are far shorter). */
const MAX_TEXT_LENGTH = 256;

/** One row as checked: its columns as text (blank ones absent), value as a number. */
export interface ImportRow {
  rowKey: string;
  occurredAt: string;
  event: string;
  value?: number;
  text: Partial<Record<string, string>>;
}

export type RowCheck = { ok: true; row: ImportRow } | { ok: false; rowKey?: string; problems: string[] };

/** The columns a header or an NDJSON object names that are not the kind's (a misspelt column would go unread). */
export function unknownColumns(kind: ImportKind, names: readonly string[]): string[] {
  return names.filter((name) => !IMPORT_COLUMNS[kind].includes(name));
}

export function unknownColumnsProblem(kind: ImportKind, unknown: readonly string[]): string {
  return `${unknown.map((name) => JSON.stringify(name)).join(', ')} ${unknown.length === 1 ? 'is not a column' : 'are not columns'} of ${kind} (${IMPORT_COLUMNS[kind].join(', ')})`;
}

/** What is wrong with a CSV header naming these columns, or undefined: every column known, every required one there. */
export function headerProblem(kind: ImportKind, columns: readonly string[]): string | undefined {
  const unknown = unknownColumns(kind, columns);
  if (unknown.length > 0) return `the header: ${unknownColumnsProblem(kind, unknown)}`;
  const missing = REQUIRED_COLUMNS[kind].filter((column) => !columns.includes(column));
  if (missing.length > 0) return `the header has no ${missing.join(', ')} column${missing.length === 1 ? '' : 's'}, which ${kind} ${missing.length === 1 ? 'needs' : 'need'}`;
  return undefined;
}

/** A cell as text: trimmed, a number written out; blank is absent. Anything else (an object, true) is a problem. */
function cellText(value: unknown): string | undefined | { problem: string } {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return { problem: 'must be text or a number' };
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Checks one row of a file against its kind's columns: row_key and occurred_at always required, lead_id and stage for
 * a lead stage; occurred_at an ISO-8601 time with a zone, not in the future; value an amount; currency ISO 4217's
 * three letters. Every problem is listed, each as `column: what is wrong`.
 */
export function checkImportRow(kind: ImportKind, fields: Readonly<Record<string, unknown>>, nowMs: number): RowCheck {
  const problems: string[] = [];
  const text: Partial<Record<string, string>> = {};
  for (const column of IMPORT_COLUMNS[kind]) {
    const cell = cellText(fields[column]);
    if (typeof cell === 'object') problems.push(`${column}: ${cell.problem}`);
    else if (cell !== undefined && cell.length > (column === 'event' || column === 'stage' ? MAX_NAME_LENGTH : MAX_TEXT_LENGTH)) problems.push(`${column}: longer than ${column === 'event' || column === 'stage' ? MAX_NAME_LENGTH : MAX_TEXT_LENGTH} characters`);
    else if (cell !== undefined) text[column] = cell;
  }
  const unknown = unknownColumns(kind, Object.keys(fields));
  if (unknown.length > 0) problems.push(unknownColumnsProblem(kind, unknown));
  for (const column of REQUIRED_COLUMNS[kind]) if (text[column] === undefined && !problems.some((p) => p.startsWith(`${column}:`))) problems.push(`${column}: required`);

  const occurredAt = text.occurred_at;
  if (occurredAt !== undefined) {
    const problem = timestampProblem(occurredAt);
    if (problem !== undefined) problems.push(`occurred_at: ${problem}`);
    else if ((parseTimestamp(occurredAt) as number) > nowMs + FUTURE_TOLERANCE_MS) problems.push('occurred_at: is in the future');
  }
  const value = text.value === undefined ? undefined : parseAmount(text.value);
  if (text.value !== undefined && value === undefined) problems.push(`value: ${JSON.stringify(text.value)} is not an amount (a number of zero or more, such as 12.5)`);
  if (text.currency !== undefined && !/^[A-Za-z]{3}$/.test(text.currency)) problems.push(`currency: ${JSON.stringify(text.currency)} is not a three-letter ISO 4217 code, such as USD`);
  if (text.email !== undefined && !text.email.includes('@')) problems.push(`email: ${JSON.stringify(text.email)} is not an email address`);

  if (problems.length > 0) return { ok: false, ...(text.row_key === undefined ? {} : { rowKey: text.row_key }), problems };
  const event = kind === 'lead_stages' ? (text.stage as string) : (text.event ?? DEFAULT_SALE_EVENT);
  return { ok: true, row: { rowKey: text.row_key as string, occurredAt: occurredAt as string, event, ...(value === undefined ? {} : { value }), text } };
}

/**
 * The rows that repeat an earlier row's key (a row key names one row of a file), each with its problem. `firstRow`:
 * the file's number of the first of `rows` (a part of a larger file).
 */
export function repeatedRowKeys<Row extends { row: number; fields?: Readonly<Record<string, unknown>> }>(rows: readonly Row[], firstRow = 1): Map<Row, { rowKey: string; problem: string }> {
  const firstOfKey = new Map<string, number>();
  const repeated = new Map<Row, { rowKey: string; problem: string }>();
  for (const row of rows) {
    const key = row.fields === undefined ? undefined : cellText(row.fields.row_key);
    if (typeof key !== 'string') continue;
    const earlier = firstOfKey.get(key);
    if (earlier === undefined) firstOfKey.set(key, row.row + firstRow - 1);
    else repeated.set(row, { rowKey: key, problem: `row_key: ${JSON.stringify(key)} is row ${earlier}'s too (a row key is unique within a file)` });
  }
  return repeated;
}
