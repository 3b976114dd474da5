import { z } from 'zod';
import { importReportView } from '../import-views';
import { importQuery, importRefusals } from '../imports';
import { inWorkspace } from '../workspaces';
import { adminRoute, inWorkspacePath } from './admin-route';

export const IMPORT_ROUTES = [
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/imports'),
    summary: 'Import past offline sales or lead stages from a CSV or NDJSON file',
    description:
      'The body is the file: `text/csv` with a header, or `application/x-ndjson` with one JSON object a line; up to 10,000 rows and 5 MiB a request (send a larger file in parts, each with `firstRow`). ' +
      'Each row is checked alone: the refused ones are listed with every problem, the others stored as track messages by the ingest recorder (a row imported again, by its kind and row_key, is stored once) and sent as conversions by the rules. Columns: docs/sending-events.md#importing-past-sales-and-lead-stages.',
    params: inWorkspace(),
    query: importQuery,
    body: z.string(),
    bodyContentType: 'text/csv',
    bodyExample: 'row_key,occurred_at,order_id,value,currency,email\nstore-1-0001,2026-11-30T14:05:00Z,POS-0001,59.90,USD,jo@example.com\n',
    answers: { 200: { description: 'What was stored, refused (each row with why) and will be sent', schema: importReportView }, ...importRefusals },
  }),
];
