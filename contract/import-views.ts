import { z } from 'zod';

/* What importing a file of past events did, as the settings API answers it. Imports nothing but zod, for the console's build. */

const count = z.number().int();

export const refusedRowView = z.strictObject({
  row: count.meta({ description: "The row's number in the file: 1 is the first row after a CSV's header" }),
  rowKey: z.string().optional(),
  problems: z.array(z.string()).meta({ description: 'Each as `column: what is wrong`' }),
});

/** `POST /admin/workspaces/:workspaceId/imports`. */
export const importReportView = z.strictObject({
  kind: z.enum(['offline_sales', 'lead_stages']),
  rows: count.meta({ description: 'Rows read' }),
  stored: count.meta({ description: 'Rows stored as new events' }),
  alreadyImported: count.meta({ description: 'Rows imported before (the same kind and row key): stored once' }),
  refused: count,
  conversions: count.meta({ description: 'Conversions made of the stored rows, to be sent to TikTok' }),
  repeatedConversions: count.meta({ description: 'Stored rows whose order or lead stage was already a conversion (its event_id): not sent again' }),
  unmapped: z.strictObject({ rows: count, events: z.array(z.string()) }).meta({ description: 'Rows whose event no conversion rule sends: stored, not sent (add a rule, then send past events)' }),
  tooOld: count.meta({ description: "Rows older than TikTok's 28-day event-time horizon: stored, but their conversions are skipped (expired)" }),
  refusedRows: z.array(refusedRowView).meta({ description: 'The refused rows, in file order (the first 1,000)' }),
});
export type ImportReportView = z.infer<typeof importReportView>;
