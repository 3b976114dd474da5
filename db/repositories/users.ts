import type { Knex } from 'knex';
import type { MembershipRow, Role, UserRow } from '../types';
import { newId } from './ids';

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

/** A user as sign-in and invitations see it: with the password hash and whether the address is confirmed. */
export interface Account extends User {
  passwordHash: string;
  /** When the address was proven or vouched for by the operator; null while nobody has. */
  emailConfirmedAt: Date | null;
}

export interface Membership {
  workspaceId: string;
  workspaceName: string;
  role: Role;
}

export interface Member extends User {
  role: Role;
  memberSince: Date;
}

export function toUser(row: Pick<UserRow, 'id' | 'email' | 'name' | 'created_at'>): User {
  return { id: row.id, email: row.email, name: row.name, createdAt: row.created_at };
}

/** One spelling per address: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** People who sign in to the console, and their role in each workspace. */
export function createUserRepository(db: Knex) {
  return {
    /** `emailConfirmedAt`: null unless the address was proven or the operator vouches for it. */
    async create(input: { email: string; name: string; passwordHash: string; emailConfirmedAt: Date | null }, executor: Knex = db): Promise<User> {
      const [row] = await executor('users')
        .insert({ id: newId('usr'), email: normalizeEmail(input.email), name: input.name, password_hash: input.passwordHash, email_confirmed_at: input.emailConfirmedAt })
        .returning('*');
      return toUser(row);
    },

    async find(id: string, executor: Knex = db): Promise<User | undefined> {
      const row = await executor('users').where({ id }).first();
      return row && toUser(row);
    },

    /** The user with this address, its password hash and whether the address is confirmed. */
    async findByEmail(email: string, executor: Knex = db): Promise<Account | undefined> {
      const row = await executor('users').where({ email: normalizeEmail(email) }).first();
      return row && { ...toUser(row), passwordHash: row.password_hash, emailConfirmedAt: row.email_confirmed_at };
    },

    async setPassword(id: string, passwordHash: string, executor: Knex = db): Promise<void> {
      await executor('users').where({ id }).update({ password_hash: passwordHash, updated_at: executor.fn.now() });
    },

    /**
     * The password chosen by whoever proved the address (a mailed link) or by the operator, who vouches for it: it
     * replaces the one before, the address is confirmed from `at` (unless it was already), and the name is set when given.
     */
    async confirmWithPassword(id: string, input: { passwordHash: string; name?: string }, at: Date, executor: Knex = db): Promise<void> {
      await executor('users')
        .where({ id })
        .update({
          password_hash: input.passwordHash,
          email_confirmed_at: executor.raw('coalesce(email_confirmed_at, ?)', [at]),
          ...(input.name === undefined ? {} : { name: input.name }),
          updated_at: executor.fn.now(),
        });
    },

    /** Adds the user to the workspace, or changes their role there. */
    async putMembership(workspaceId: string, userId: string, role: Role, executor: Knex = db): Promise<void> {
      await executor('memberships').insert({ workspace_id: workspaceId, user_id: userId, role }).onConflict(['workspace_id', 'user_id']).merge({ role });
    },

    async role(workspaceId: string, userId: string, executor: Knex = db): Promise<Role | undefined> {
      const row = await executor('memberships').where({ workspace_id: workspaceId, user_id: userId }).first('role');
      return row?.role;
    },

    async memberships(userId: string, executor: Knex = db): Promise<Membership[]> {
      const rows = await executor('memberships as m')
        .join('workspaces as w', 'w.id', 'm.workspace_id')
        .where('m.user_id', userId)
        .orderBy('w.name')
        .select<{ workspace_id: string; name: string; role: Role }[]>('m.workspace_id', 'w.name', 'm.role');
      return rows.map((row) => ({ workspaceId: row.workspace_id, workspaceName: row.name, role: row.role }));
    },

    async members(workspaceId: string, executor: Knex = db): Promise<Member[]> {
      const rows = await executor('memberships as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where('m.workspace_id', workspaceId)
        .orderBy('u.email')
        .select<(UserRow & Pick<MembershipRow, 'role'> & { member_since: Date })[]>('u.*', 'm.role', { member_since: 'm.created_at' });
      return rows.map((row) => ({ ...toUser(row), role: row.role, memberSince: row.member_since }));
    },

    async removeMembership(workspaceId: string, userId: string, executor: Knex = db): Promise<boolean> {
      return (await executor('memberships').where({ workspace_id: workspaceId, user_id: userId }).delete()) > 0;
    },

    async ownerCount(workspaceId: string, executor: Knex = db): Promise<number> {
      const [{ count }] = await executor('memberships').where({ workspace_id: workspaceId, role: 'owner' }).count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
