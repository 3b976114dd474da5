import type { Knex } from 'knex';
import type { ChangeLogRow } from '../types';

export interface ChangeLogEntry {
  workspaceId: string;
  /** `operator`, `user:<id>`, `system` or `shopify:<shop>` (its privacy webhooks). */
  actor: string;
  action: string;
  target?: string | null;
  /** Settings as they were and became; the caller leaves secrets out. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface ChangeLogPage {
  limit: number;
  /** Entries older than this ID (newest first). */
  beforeId?: string;
}

export function createChangeLogRepository(db: Knex) {
  return {
    /** Appends an entry; pass the transaction that made the change so both commit or neither does. */
    async record(entry: ChangeLogEntry, executor: Knex = db): Promise<void> {
      await executor('change_log').insert({
        workspace_id: entry.workspaceId,
        actor: entry.actor,
        action: entry.action,
        target: entry.target ?? null,
        before: entry.before ?? null,
        after: entry.after ?? null,
      });
    },

    async list(workspaceId: string, page: ChangeLogPage, executor: Knex = db): Promise<ChangeLogRow[]> {
      const builder = executor('change_log').where({ workspace_id: workspaceId });
      if (page.beforeId !== undefined) builder.where('id', '<', page.beforeId);
      return builder.orderBy('id', 'desc').limit(page.limit);
    },
  };
}

export type ChangeLogRepository = ReturnType<typeof createChangeLogRepository>;
