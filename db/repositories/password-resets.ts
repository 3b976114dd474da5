import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { newId } from './ids';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** Reset links: the mail carries a random token, the table only its SHA-256, so a copy of it resets nothing. */
export function createPasswordResetRepository(db: Knex) {
  return {
    /** A new single-use token for the user; its raw value is returned once, for the mail. */
    async create(userId: string, expiresAt: Date, executor: Knex = db): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      await executor('password_resets').insert({ id: newId('pwr'), user_id: userId, token_hash: sha256(token), expires_at: expiresAt });
      return token;
    },

    /** The user of a token that is unused and unexpired at `now`. */
    async findLive(token: string, now: Date, executor: Knex = db): Promise<{ id: string; userId: string } | undefined> {
      const row = (await executor('password_resets').where({ token_hash: sha256(token) }).whereNull('used_at').where('expires_at', '>', now).first()) as { id: string; user_id: string } | undefined;
      return row && { id: row.id, userId: row.user_id };
    },

    /** Uses the token (false when another request used it first) and every other live token of its user. */
    async use(id: string, userId: string, executor: Knex = db): Promise<boolean> {
      const used = await executor('password_resets').where({ id }).whereNull('used_at').update({ used_at: executor.fn.now() });
      if (used === 0) return false;
      await executor('password_resets').where({ user_id: userId }).whereNull('used_at').update({ used_at: executor.fn.now() });
      return true;
    },

    async recordRequest(email: string, address: string, executor: Knex = db): Promise<void> {
      await executor('password_reset_requests').insert({ email, address });
    },

    async recentRequests(email: string, address: string, since: Date, executor: Knex = db): Promise<{ email: { count: number; oldest: Date | null }; address: { count: number; oldest: Date | null } }> {
      const count = async (column: 'email' | 'address', value: string) => {
        const row = (await executor('password_reset_requests').where(column, value).where('at', '>=', since).first(executor.raw('count(*) AS count'), executor.raw('min(at) AS oldest'))) as { count: string; oldest: Date | null };
        return { count: Number(row.count), oldest: row.oldest };
      };
      return { email: await count('email', email), address: await count('address', address) };
    },
  };
}

export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;
