import type { Knex } from 'knex';

export interface DeliveryShare {
  delivered: number;
  failed: number;
}

/** What the alert conditions are computed from, each an indexed read of one workspace. */
export function createAlertFigureRepository(db: Knex) {
  return {
    /** Conversions that ended delivered or failed since `since` (by when they ended). */
    async settledSince(workspaceId: string, since: Date, executor: Knex = db): Promise<DeliveryShare> {
      const { rows } = await executor.raw<{ rows: { delivered: string; failed: string }[] }>(
        `SELECT count(*) FILTER (WHERE status = 'delivered') AS delivered, count(*) FILTER (WHERE status = 'failed') AS failed
         FROM conversions WHERE workspace_id = ? AND status IN ('delivered','failed') AND completed_at >= ?`,
        [workspaceId, since],
      );
      return { delivered: Number(rows[0]?.delivered ?? 0), failed: Number(rows[0]?.failed ?? 0) };
    },

    async ownerEmails(workspaceId: string, executor: Knex = db): Promise<string[]> {
      const rows = await executor('memberships as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.workspace_id': workspaceId, 'm.role': 'owner' }).orderBy('u.email').select<{ email: string }[]>('u.email');
      return rows.map((row) => row.email);
    },
  };
}

export type AlertFigureRepository = ReturnType<typeof createAlertFigureRepository>;
