import type { ImportReportView } from '../../contract/import-views';
import type { Repositories } from '../../db/repositories';
import type { Workspace } from '../../db/repositories/workspaces';
import { TIKTOK_EVENT_HORIZON_DAYS } from '../../domain/delivery-retry';
import { readImportFile, type FileRow, type ImportFormat } from '../../domain/imports/import-file';
import { importMessage } from '../../domain/imports/import-message';
import { checkImportRow, headerProblem, repeatedRowKeys, type ImportKind } from '../../domain/imports/import-rows';
import { checkMessage, formatIssue, type ValidMessage } from '../../sdk/src/rules/index.js';
import { badRequest, payloadTooLarge } from '../http/http-error';
import { MAX_EVENTS_PER_BATCH } from '../http/limits';

const DAY_MS = 86_400_000;
/** Refused rows listed in one answer; the counts cover them all. */
const MAX_LISTED_REFUSALS = 1_000;

/** What storing messages answered: the recorder of `/v1/batch` (api/ingest/record-batch.ts), handed in by api/app.ts. */
export interface RecordedRows {
  stored: number;
  duplicates: number;
  repeatedConversions: number;
  conversions: readonly unknown[];
}

type Deps = {
  repos: Pick<Repositories, 'conversionRules' | 'importedRows'>;
  /** Stores the messages as `/v1/batch` does (durable when it resolves), then wakes their conversions' workflows. */
  record: (workspace: Workspace, messages: readonly ValidMessage[], receivedAt: Date) => Promise<RecordedRows>;
  now?: () => number;
};

export interface ImportRequest {
  kind: ImportKind;
  format: ImportFormat;
  text: string;
  /** The file's number of the text's first row (a part of a larger file). */
  firstRow: number;
}

type Refusal = ImportReportView['refusedRows'][number];

/**
 * Imports a file of past offline sales or lead stages (or a part of one): each row checked alone, refused with every
 * problem named, the others made Segment track messages (domain/imports/import-message.ts), checked with the ingest
 * API's message rules and stored by its recorder, so their conversions are made and sent as any other's. A row's
 * message ID comes from its kind and key, and the workspace remembers the IDs it imported: a row imported again is
 * stored once, whenever it comes, and its event_id keeps its conversion from being made twice.
 */
export function createImportService({ repos, record, now = Date.now }: Deps) {
  /** Stores the rows not imported before; ingest's own look-back catches a repeat whose ID was not yet remembered. */
  async function recordOnce(workspace: Workspace, messages: readonly ValidMessage[], nowMs: number): Promise<RecordedRows & { importedBefore: number }> {
    const fresh = messages.length === 0 ? new Set<string>() : await repos.importedRows.notImported(workspace.id, messages.map((message) => message.messageId as string));
    const toStore = messages.filter((message) => fresh.has(message.messageId as string));
    const recorded = toStore.length === 0 ? { stored: 0, duplicates: 0, repeatedConversions: 0, conversions: [] } : await record(workspace, toStore, new Date(nowMs));
    await repos.importedRows.remember(workspace.id, [...fresh]);
    return { ...recorded, importedBefore: messages.length - toStore.length };
  }

  return async function importRows(workspace: Workspace, { kind, format, text, firstRow }: ImportRequest): Promise<ImportReportView> {
    const file = readImportFile(text, format);
    if (!file.ok) throw badRequest(file.problem, [file.problem]);
    if (file.rows.length === 0) throw badRequest('the file has no row', ['the file has no row']);
    if (file.rows.length > MAX_EVENTS_PER_BATCH) throw payloadTooLarge(`${file.rows.length.toLocaleString('en-US')} rows in one request, over ${MAX_EVENTS_PER_BATCH.toLocaleString('en-US')}: send the file in parts, with firstRow`);
    const header = file.columns === undefined ? undefined : headerProblem(kind, file.columns);
    if (header !== undefined) throw badRequest(header, [header]);

    const nowMs = now();
    const repeated = repeatedRowKeys(file.rows, firstRow);
    const refused: Refusal[] = [];
    const messages: ValidMessage[] = [];
    for (const fileRow of file.rows) {
      const row = fileRow.row + firstRow - 1;
      const repeatedKey = repeated.get(fileRow);
      const outcome = repeatedKey === undefined ? checkedRow(kind, fileRow, nowMs) : { rowKey: repeatedKey.rowKey, problems: [repeatedKey.problem] };
      if ('problems' in outcome) refused.push({ row, ...(outcome.rowKey === undefined ? {} : { rowKey: outcome.rowKey }), problems: outcome.problems });
      else messages.push(outcome.message);
    }

    const eventNames = [...new Set(messages.map((message) => message.event as string))];
    const [rules, recorded] = await Promise.all([repos.conversionRules.forEvents(workspace.id, eventNames), recordOnce(workspace, messages, nowMs)]);
    const unmapped = messages.filter((message) => !rules.has(message.event as string));
    const horizon = nowMs - TIKTOK_EVENT_HORIZON_DAYS * DAY_MS;
    return {
      kind,
      rows: file.rows.length,
      stored: recorded.stored,
      alreadyImported: recorded.duplicates + recorded.importedBefore,
      refused: refused.length,
      conversions: recorded.conversions.length,
      repeatedConversions: recorded.repeatedConversions,
      unmapped: { rows: unmapped.length, events: [...new Set(unmapped.map((message) => message.event as string))] },
      tooOld: messages.filter((message) => Date.parse(message.timestamp as string) < horizon).length,
      refusedRows: refused.slice(0, MAX_LISTED_REFUSALS),
    };
  };
}

/** One row as a checked message, or its problems: the row's own, then the message rules' (named by message field). */
function checkedRow(kind: ImportKind, fileRow: FileRow, nowMs: number): { message: ValidMessage } | { rowKey?: string; problems: string[] } {
  if (fileRow.fields === undefined) return { problems: [fileRow.problem as string] };
  const check = checkImportRow(kind, fileRow.fields, nowMs);
  if (!check.ok) return check;
  const message = checkMessage(importMessage(kind, check.row));
  if (!message.ok) return { rowKey: check.row.rowKey, problems: message.issues.map((issue) => formatIssue(issue)) };
  return { message: message.message };
}

export type ImportService = ReturnType<typeof createImportService>;
