import type { Knex } from 'knex';
import type { ConversionHistoryRow, ConversionStep } from '../types';

export interface HistoryEntry {
  conversionId: string;
  step: ConversionStep;
  /** Codes, counts and IDs; never plaintext PII. */
  detail: Record<string, unknown>;
}

/** The timeline of each conversion (`conversion_history`), written a group at a time. */
export function createConversionHistoryRepository(db: Knex) {
  return {
    /** One statement for any number of entries; pass the transaction that made the changes they describe. */
    async record(entries: readonly HistoryEntry[], executor: Knex = db): Promise<void> {
      if (entries.length === 0) return;
      // One JSON document, not an array per column: the details are not escaped again as array elements.
      await executor.raw(
        `INSERT INTO conversion_history (conversion_id, step, detail)
         SELECT id, step, detail FROM jsonb_to_recordset(?::jsonb) AS e(id uuid, step text, detail jsonb)`,
        [JSON.stringify(entries.map((e) => ({ id: e.conversionId, step: e.step, detail: e.detail })))],
      );
    },

    async list(conversionId: string, executor: Knex = db): Promise<ConversionHistoryRow[]> {
      return executor('conversion_history').where({ conversion_id: conversionId }).orderBy('id');
    },
  };
}

export type ConversionHistoryRepository = ReturnType<typeof createConversionHistoryRepository>;
