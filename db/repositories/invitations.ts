import type { Knex } from 'knex';
import { sha256Hex } from '../../domain/hashing';
import type { InvitationDelivery, InvitationRow, Role } from '../types';
import { newId } from './ids';
import { normalizeEmail } from './users';

export interface Invitation {
  id: string;
  workspaceId: string;
  email: string;
  role: Role;
  invitedBy: string;
  delivery: InvitationDelivery;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    delivery: row.delivery,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    revokedAt: row.revoked_at,
  };
}

/** Invitations by link: the link's token is stored only as its SHA-256; each is accepted at most once. */
export function createInvitationRepository(db: Knex) {
  return {
    async create(input: { workspaceId: string; email: string; role: Role; token: string; invitedBy: string; delivery: InvitationDelivery; expiresAt: Date }, executor: Knex = db): Promise<Invitation> {
      const [row] = await executor('invitations')
        .insert({
          id: newId('inv'),
          workspace_id: input.workspaceId,
          email: normalizeEmail(input.email),
          role: input.role,
          token_hash: sha256Hex(input.token),
          invited_by: input.invitedBy,
          delivery: input.delivery,
          expires_at: input.expiresAt,
        })
        .returning('*');
      return toInvitation(row);
    },

    /**
     * The invitations made by `invitedBy` since `inviterSince` and by people (not the operator) in the workspace since
     * `workspaceSince`, and the oldest of each (for Retry-After). Call it in the transaction that then makes one: it first takes a transaction
     * lock on the inviter, then on the workspace, so that requests on every API process count one after another.
     */
    async countRecent(input: { invitedBy: string; inviterSince: Date; workspaceId: string; workspaceSince: Date }, trx: Knex.Transaction) {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`signalbox:invitations-by:${input.invitedBy}`]);
      await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`signalbox:invitations-in:${input.workspaceId}`]);
      const { rows } = await trx.raw<{ rows: { scope: 'inviter' | 'workspace'; made: string; oldest: Date | null }[] }>(
        `SELECT 'inviter' AS scope, count(*) AS made, min(created_at) AS oldest FROM invitations WHERE invited_by = ? AND created_at > ?
         UNION ALL
         SELECT 'workspace', count(*), min(created_at) FROM invitations WHERE workspace_id = ? AND created_at > ? AND delivery <> 'operator'`,
        [input.invitedBy, input.inviterSince, input.workspaceId, input.workspaceSince],
      );
      const of = (scope: 'inviter' | 'workspace') => {
        const row = rows.find((r) => r.scope === scope);
        return { made: Number(row?.made ?? 0), oldest: row?.oldest ?? null };
      };
      return { inviter: of('inviter'), workspace: of('workspace') };
    },

    async findByToken(token: string, executor: Knex = db): Promise<Invitation | undefined> {
      const row = await executor('invitations').where({ token_hash: sha256Hex(token) }).first();
      return row && toInvitation(row);
    },

    /** Marks it accepted unless it was accepted, revoked or expired in the meantime (row lock: single use). */
    async accept(id: string, userId: string, now: Date, executor: Knex = db): Promise<boolean> {
      const updated = await executor('invitations')
        .where({ id })
        .whereNull('accepted_at')
        .whereNull('revoked_at')
        .where('expires_at', '>', now)
        .update({ accepted_at: now, accepted_by: userId });
      return updated > 0;
    },

    async listOpen(workspaceId: string, now: Date, executor: Knex = db): Promise<Invitation[]> {
      const rows = await executor('invitations')
        .where({ workspace_id: workspaceId })
        .whereNull('accepted_at')
        .whereNull('revoked_at')
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc');
      return rows.map(toInvitation);
    },

    async revoke(workspaceId: string, id: string, executor: Knex = db): Promise<Invitation | undefined> {
      const [row] = await executor('invitations')
        .where({ workspace_id: workspaceId, id })
        .whereNull('accepted_at')
        .whereNull('revoked_at')
        .update({ revoked_at: executor.fn.now() })
        .returning('*');
      return row && toInvitation(row);
    },
  };
}

export type InvitationRepository = ReturnType<typeof createInvitationRepository>;
