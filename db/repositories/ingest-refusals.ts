import type { Knex } from 'knex';
import type { IngestRefusalRow } from '../types';

export interface NewIngestRefusal {
  workspaceId: string;
  status: number;
  error: string;
  message: string;
  issues: readonly string[] | null;
  path: string;
  /** The first characters of the key used (e.g. `dk_Ab12Cd`), never the key. */
  keyPrefix: string | null;
  /** The web page's origin that sent it (its `Origin` header), if any. */
  origin: string | null;
  /** Why ingest refused its key (api/http/ingest-refusal.ts), else null. */
  reason: string | null;
}

export interface IngestRefusal extends Omit<NewIngestRefusal, 'issues'> {
  id: string;
  at: Date;
  issues: string[] | null;
}

function toRefusal(row: IngestRefusalRow): IngestRefusal {
  return {
    id: String(row.id),
    workspaceId: row.workspace_id,
    at: row.at,
    status: row.status,
    error: row.error,
    message: row.message,
    issues: row.issues,
    path: row.path,
    keyPrefix: row.key_prefix,
    origin: row.origin,
    reason: row.reason,
  };
}

/** Requests the ingest API refused for a known workspace, kept a day for the console's event debugger. */
export function createIngestRefusalRepository(db: Knex) {
  return {
    async record(refusals: readonly NewIngestRefusal[], executor: Knex = db): Promise<void> {
      if (refusals.length === 0) return;
      await executor('ingest_refusals').insert(
        refusals.map((r) => ({
          workspace_id: r.workspaceId,
          status: r.status,
          error: r.error,
          message: r.message,
          issues: r.issues === null ? null : JSON.stringify(r.issues),
          path: r.path,
          key_prefix: r.keyPrefix,
          origin: r.origin,
          reason: r.reason,
        })) as never,
      );
    },

    /** Newest first when `afterId` is absent (the last `limit`), else those after it, oldest first. */
    async list(workspaceId: string, query: { afterId?: string; limit: number }, executor: Knex = db): Promise<IngestRefusal[]> {
      const builder = executor('ingest_refusals').where({ workspace_id: workspaceId });
      if (query.afterId === undefined) {
        const rows = await builder.orderBy('id', 'desc').limit(query.limit);
        return rows.reverse().map(toRefusal);
      }
      const rows = await builder.where('id', '>', query.afterId).orderBy('id').limit(query.limit);
      return rows.map(toRefusal);
    },

    async prune(olderThan: Date, executor: Knex = db): Promise<number> {
      return executor('ingest_refusals').where('at', '<', olderThan).delete();
    },
  };
}

export type IngestRefusalRepository = ReturnType<typeof createIngestRefusalRepository>;
