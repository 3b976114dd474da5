import type { Knex } from 'knex';
import { sha256Hex } from '../../domain/hashing';
import type { ConsoleSessionRow } from '../types';
import { newId } from './ids';

export interface ConsoleSession {
  id: string;
  userId: string;
  csrfToken: string;
  userAgent: string | null;
  address: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

function toSession(row: ConsoleSessionRow): ConsoleSession {
  return {
    id: row.id,
    userId: row.user_id,
    csrfToken: row.csrf_token,
    userAgent: row.user_agent,
    address: row.address,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

/** Server-side console sessions. The cookie's token is stored only as its SHA-256. */
export function createConsoleSessionRepository(db: Knex) {
  return {
    async create(
      input: { token: string; userId: string; csrfToken: string; userAgent: string | null; address: string | null; expiresAt: Date },
      executor: Knex = db,
    ): Promise<ConsoleSession> {
      const [row] = await executor('console_sessions')
        .insert({
          id: newId('ses'),
          token_hash: sha256Hex(input.token),
          user_id: input.userId,
          csrf_token: input.csrfToken,
          user_agent: input.userAgent,
          address: input.address,
          expires_at: input.expiresAt,
        })
        .returning('*');
      return toSession(row);
    },

    /** The live session of this token (not revoked, not expired), undefined otherwise. */
    async findLive(token: string, now: Date, executor: Knex = db): Promise<ConsoleSession | undefined> {
      const row = await executor('console_sessions').where({ token_hash: sha256Hex(token) }).whereNull('revoked_at').where('expires_at', '>', now).first();
      return row && toSession(row);
    },

    /** Slides the idle expiry forward; called at most once a minute per session. */
    async touch(id: string, lastSeenAt: Date, expiresAt: Date, executor: Knex = db): Promise<void> {
      await executor('console_sessions').where({ id }).update({ last_seen_at: lastSeenAt, expires_at: expiresAt });
    },

    async listLive(userId: string, now: Date, executor: Knex = db): Promise<ConsoleSession[]> {
      const rows = await executor('console_sessions').where({ user_id: userId }).whereNull('revoked_at').where('expires_at', '>', now).orderBy('last_seen_at', 'desc');
      return rows.map(toSession);
    },

    /** Revokes one of the user's sessions; false when the user has no such live session. */
    async revoke(userId: string, id: string, executor: Knex = db): Promise<boolean> {
      return (await executor('console_sessions').where({ user_id: userId, id }).whereNull('revoked_at').update({ revoked_at: executor.fn.now() })) > 0;
    },

    /** Revokes every live session of the user (a password set through a reset link). */
    async revokeAll(userId: string, executor: Knex = db): Promise<void> {
      await executor('console_sessions').where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: executor.fn.now() });
    },

    /** Revokes every live session of the user but `keepId` (the one that asked). */
    async revokeOthers(userId: string, keepId: string, executor: Knex = db): Promise<void> {
      await executor('console_sessions').where({ user_id: userId }).whereNull('revoked_at').whereNot({ id: keepId }).update({ revoked_at: executor.fn.now() });
    },
  };
}

export type ConsoleSessionRepository = ReturnType<typeof createConsoleSessionRepository>;
