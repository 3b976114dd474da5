import { z } from 'zod';
import { IMPORT_KINDS } from '../domain/imports/import-rows';
import { errorAnswer } from './errors';

/** The media types an import's body may have: a CSV file with a header, or one JSON object a line. */
export const IMPORT_MEDIA_TYPES = { csv: 'text/csv', ndjson: 'application/x-ndjson' } as const;

/** `POST /admin/workspaces/:workspaceId/imports`: what the file holds, and where this part of it starts. */
export const importQuery = z.object({
  kind: z.enum(IMPORT_KINDS, { error: `must be one of ${IMPORT_KINDS.join(', ')}` }),
  firstRow: z.coerce
    .number({ error: 'must be a row number' })
    .int('must be a whole row number')
    .min(1, 'must be at least 1')
    .default(1)
    .meta({ description: "The file's row number of the body's first row, when the body is a part of a larger file: the report numbers rows as the file does" }),
});

/** What an import can refuse whole, beside a bad query. */
export const importRefusals = {
  400: errorAnswer('The body cannot be read as a whole (a CSV whose quotes do not close, a header naming a column the kind does not have) or it has no row'),
  413: errorAnswer('More than 10,000 rows or 5 MiB in one request: send the file in parts (the CLI sends 2,000 rows a request)'),
  415: errorAnswer('The body is neither text/csv nor application/x-ndjson'),
};
