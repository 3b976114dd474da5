import type { Knex } from 'knex';

/** The message IDs of a workspace's imported file rows: a row imported again, even days later, is not stored twice. */
export function createImportedRowRepository(db: Knex) {
  return {
    /** The IDs among `messageIds` not imported before. */
    async notImported(workspaceId: string, messageIds: readonly string[]): Promise<Set<string>> {
      const { rows } = await db.raw<{ rows: { message_id: string }[] }>(
        'SELECT m.id AS message_id FROM unnest(?::text[]) AS m(id) WHERE NOT EXISTS (SELECT 1 FROM imported_rows r WHERE r.workspace_id = ? AND r.message_id = m.id)',
        [[...messageIds], workspaceId],
      );
      return new Set(rows.map((row) => row.message_id));
    },

    /** Records IDs whose rows are stored (after the recorder committed them). */
    async remember(workspaceId: string, messageIds: readonly string[]): Promise<void> {
      if (messageIds.length === 0) return;
      await db.raw('INSERT INTO imported_rows (workspace_id, message_id) SELECT ?, unnest(?::text[]) ON CONFLICT DO NOTHING', [workspaceId, [...messageIds]]);
    },
  };
}
