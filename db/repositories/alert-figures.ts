import type { Knex } from 'knex';
import type { TikTokAnswer } from '../../domain/alert-message';

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

    /** TikTok's commonest answers to the conversions that failed since `since`, most first (the settled index's rows). */
    async tiktokAnswers(workspaceId: string, since: Date, limit = 3, executor: Knex = db): Promise<TikTokAnswer[]> {
      const { rows } = await executor.raw<{ rows: { code: number | null; message: string; conversions: string }[] }>(
        `SELECT tiktok_code AS code, tiktok_message AS message, count(*) AS conversions
         FROM conversions WHERE workspace_id = ? AND status = 'failed' AND completed_at >= ? AND tiktok_message IS NOT NULL
         GROUP BY tiktok_code, tiktok_message ORDER BY count(*) DESC, tiktok_message LIMIT ?`,
        [workspaceId, since, limit],
      );
      return rows.map((row) => ({ code: row.code, message: row.message, conversions: Number(row.conversions) }));
    },

    async ownerEmails(workspaceId: string, executor: Knex = db): Promise<string[]> {
      const rows = await executor('memberships as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.workspace_id': workspaceId, 'm.role': 'owner' }).orderBy('u.email').select<{ email: string }[]>('u.email');
      return rows.map((row) => row.email);
    },
  };
}

export type AlertFigureRepository = ReturnType<typeof createAlertFigureRepository>;
