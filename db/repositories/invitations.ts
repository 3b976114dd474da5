import type { Knex } from 'knex';
import { sha256Hex } from '../../domain/hashing';
import type { InvitationRow, Role } from '../types';
import { newId } from './ids';
import { normalizeEmail } from './users';

export interface Invitation {
  id: string;
  workspaceId: string;
  email: string;
  role: Role;
  invitedBy: string;
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
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    revokedAt: row.revoked_at,
  };
}

/** Invitations by link: the link's token is stored only as its SHA-256; each is accepted at most once. */
export function createInvitationRepository(db: Knex) {
  return {
    async create(input: { workspaceId: string; email: string; role: Role; token: string; invitedBy: string; expiresAt: Date }, executor: Knex = db): Promise<Invitation> {
      const [row] = await executor('invitations')
        .insert({
          id: newId('inv'),
          workspace_id: input.workspaceId,
          email: normalizeEmail(input.email),
          role: input.role,
          token_hash: sha256Hex(input.token),
          invited_by: input.invitedBy,
          expires_at: input.expiresAt,
        })
        .returning('*');
      return toInvitation(row);
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
