import type { Knex } from 'knex';

/**
 * How the conversion rollups find rows of their rolled-up past that changed: conversions of events after an ID
 * watermark (new, e.g. a historical import) and conversion_history rows after another (a retry or late outcome).
 * Each run scans from the watermarks of the run before last, so a transaction that committed a little after drawing
 * its ID is still seen (rolling a period up twice changes nothing).
 */
export interface Watermarks {
  eventRowId: string;
  historyId: string;
}

/** The IDs to scan after in this run (undefined on a first run), and the watermarks to store for the next one. */
export async function advanceWatermarks(trx: Knex, stored: Record<string, string> | undefined): Promise<{ since: Watermarks | undefined; store: Record<string, string> }> {
  const { rows } = await trx.raw<{ rows: { event_row_id: string | null; history_id: string | null }[] }>(
    'SELECT (SELECT max(id) FROM events)::text AS event_row_id, (SELECT max(id) FROM conversion_history)::text AS history_id',
  );
  const now = { eventRowId: rows[0]?.event_row_id ?? '0', historyId: rows[0]?.history_id ?? '0' };
  if (stored === undefined) {
    return { since: undefined, store: { eventRowId: now.eventRowId, historyId: now.historyId, nextEventRowId: now.eventRowId, nextHistoryId: now.historyId } };
  }
  return {
    since: { eventRowId: stored.eventRowId ?? '0', historyId: stored.historyId ?? '0' },
    store: {
      eventRowId: stored.nextEventRowId ?? now.eventRowId,
      historyId: stored.nextHistoryId ?? now.historyId,
      nextEventRowId: now.eventRowId,
      nextHistoryId: now.historyId,
    },
  };
}

/** `workspace_id` and `event_time` of the conversions new or changed after the watermarks (two `?`: event row ID, history ID). */
export const CHANGED_CONVERSIONS = `
  SELECT c.workspace_id, c.event_time FROM conversions c WHERE c.event_row_id > ?
  UNION ALL
  SELECT c.workspace_id, c.event_time FROM conversion_history h JOIN conversions c ON c.id = h.conversion_id WHERE h.id > ?`;

export const changedBindings = (since: Watermarks): string[] => [since.eventRowId, since.historyId];
