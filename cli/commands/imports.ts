import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { ImportReportView } from '../../contract/import-views';
import { IMPORT_MEDIA_TYPES } from '../../contract/imports';
import { importFileText, readImportFile, type FileRow, type ImportFormat } from '../../domain/imports/import-file';
import { IMPORT_KINDS, repeatedRowKeys, type ImportKind } from '../../domain/imports/import-rows';
import { ApiError, CliError, ExitStatus } from '../errors';
import { count } from '../figures';
import { act, type CliIo } from '../session';

/** Rows a request carries: one group of the ingest recorder's transactions (api/ingest/group-commit.ts). */
const ROWS_PER_REQUEST = 2_000;
/** Requests in flight: the recorder commits two groups of a workspace at a time, so one is read while one commits. */
const PARTS_IN_FLIGHT = 2;
const FORMAT_OF_EXTENSION: Record<string, ImportFormat> = { '.csv': 'csv', '.ndjson': 'ndjson', '.jsonl': 'ndjson' };

type Refusal = ImportReportView['refusedRows'][number];

interface Part {
  firstRow: number;
  rows: FileRow[];
}

function kindOf(flag: string): ImportKind {
  const kind = flag.replace(/-/g, '_') as ImportKind;
  if (!IMPORT_KINDS.includes(kind)) throw new CliError(`--kind must be offline-sales or lead-stages, not ${flag}`);
  return kind;
}

function formatOf(file: string, flag: string | undefined): ImportFormat {
  if (flag !== undefined) {
    if (flag !== 'csv' && flag !== 'ndjson') throw new CliError(`--format must be csv or ndjson, not ${flag}`);
    return flag;
  }
  const format = FORMAT_OF_EXTENSION[extname(file).toLowerCase()];
  if (format === undefined) throw new CliError(`cannot tell the format of ${file} by its name (.csv, .ndjson, .jsonl): give --format csv or --format ndjson`);
  return format;
}

/**
 * The requests a file goes in: runs of consecutive rows, each numbered from its first, so the server's report numbers
 * rows as the file does. A row repeating an earlier row's key (in any part) is refused here and ends its run.
 */
function partsOf(rows: readonly FileRow[]): { parts: Part[]; repeated: Refusal[] } {
  const repeatedRows = repeatedRowKeys(rows);
  const parts: Part[] = [];
  const repeated: Refusal[] = [];
  let current: Part | undefined;
  for (const row of rows) {
    const repeat = repeatedRows.get(row);
    if (repeat !== undefined) {
      repeated.push({ row: row.row, rowKey: repeat.rowKey, problems: [repeat.problem] });
      current = undefined;
      continue;
    }
    if (current === undefined || current.rows.length === ROWS_PER_REQUEST) {
      current = { firstRow: row.row, rows: [] };
      parts.push(current);
    }
    current.rows.push(row);
  }
  return { parts, repeated };
}

/** The parts' reports as one, the file's refused rows in file order. */
function merged(kind: ImportKind, reports: readonly ImportReportView[], repeated: readonly Refusal[], rows: number): ImportReportView {
  const sum = (field: 'stored' | 'alreadyImported' | 'refused' | 'conversions' | 'repeatedConversions' | 'tooOld') => reports.reduce((total, report) => total + report[field], 0);
  return {
    kind,
    rows,
    stored: sum('stored'),
    alreadyImported: sum('alreadyImported'),
    refused: sum('refused') + repeated.length,
    conversions: sum('conversions'),
    repeatedConversions: sum('repeatedConversions'),
    unmapped: { rows: reports.reduce((total, report) => total + report.unmapped.rows, 0), events: [...new Set(reports.flatMap((report) => report.unmapped.events))] },
    tooOld: sum('tooOld'),
    refusedRows: [...reports.flatMap((report) => report.refusedRows), ...repeated].sort((a, b) => a.row - b.row),
  };
}

function reportText(workspaceId: string, file: string, report: ImportReportView): string {
  const lines = [`${file}: ${count(report.rows)} rows of ${report.kind.replace('_', ' ')}`];
  lines.push(`  stored:            ${count(report.stored)}`);
  if (report.alreadyImported > 0) lines.push(`  already imported:  ${count(report.alreadyImported)} (the same row keys: stored once, nothing sent again)`);
  lines.push(`  conversions:       ${count(report.conversions)} to send to TikTok`);
  if (report.repeatedConversions > 0) lines.push(`  repeats:           ${count(report.repeatedConversions)} rows whose order or lead stage is already a conversion: not sent again`);
  if (report.unmapped.rows > 0) {
    const events = report.unmapped.events.map((event) => JSON.stringify(event)).join(', ');
    lines.push(`  no rule:           ${count(report.unmapped.rows)} rows of ${events}: stored, not sent (add a rule: rules put ${workspaceId} <event>, then send its past events)`);
  }
  if (report.tooOld > 0) lines.push(`  too old:           ${count(report.tooOld)} rows older than TikTok's 28 days: stored, not sent`);
  lines.push(`  refused:           ${count(report.refused)}`);
  for (const refusal of report.refusedRows) lines.push(`    row ${refusal.row}${refusal.rowKey === undefined ? '' : ` (${refusal.rowKey})`}: ${refusal.problems.join('; ')}`);
  if (report.refusedRows.length < report.refused) lines.push(`    … and ${count(report.refused - report.refusedRows.length)} more (--json lists the first 1,000 of each part)`);
  return lines.join('\n');
}

export function registerImportCommand(program: Command, io: CliIo): void {
  program
    .command('import <workspaceId> <file>')
    .description('import past offline sales or lead stages from a CSV or NDJSON file: each row checked, stored once by its row key, sent as a conversion by the rules')
    .requiredOption('--kind <kind>', 'offline-sales or lead-stages (the columns: docs/sending-events.md)')
    .option('--format <format>', 'csv or ndjson (default: by the file name, .csv, .ndjson or .jsonl)')
    .action(
      act(io, async ({ request, print }, workspaceId: string, file: string, flags: { kind: string; format?: string }) => {
        const kind = kindOf(flags.kind);
        const format = formatOf(file, flags.format);
        let text: string;
        try {
          text = readFileSync(resolve(io.cwd, file), 'utf8');
        } catch (error) {
          throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
        }
        const read = readImportFile(text, format);
        if (!read.ok) throw new CliError(`${file}: ${read.problem}`);
        if (read.rows.length === 0) throw new CliError(`${file} has no row`);
        const { parts, repeated } = partsOf(read.rows);
        const reports: ImportReportView[] = [];
        let next = 0;
        let failed = false;
        const sender = async () => {
          for (let part = parts[next++]; part !== undefined && !failed; part = parts[next++]) {
            try {
              reports.push(
                await request<ImportReportView>('POST', `/admin/workspaces/${encodeURIComponent(workspaceId)}/imports`, {
                  query: { kind, firstRow: part.firstRow },
                  file: { contentType: IMPORT_MEDIA_TYPES[format], body: importFileText(read.header, part.rows) },
                }),
              );
            } catch (error) {
              failed = true;
              if (!(error instanceof ApiError)) throw error;
              const last = part.rows.at(-1)?.row ?? part.firstRow;
              const rows = last === part.firstRow ? `row ${last}` : `rows ${part.firstRow}-${last}`;
              throw new ApiError(error.status, error.code, `${rows}: ${error.message} (the parts answered before were stored: importing the file again stores each row once)`, error.issues);
            }
          }
        };
        await Promise.all(Array.from({ length: PARTS_IN_FLIGHT }, sender));
        const report = merged(kind, reports, repeated, read.rows.length);
        print(report, (value) => reportText(workspaceId, file, value));
        if (report.refused > 0) throw new ExitStatus(1);
      }),
    );
}
