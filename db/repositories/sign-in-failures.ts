import type { Knex } from 'knex';
import { normalizeEmail } from './users';

/** Failed sign-ins, counted per account and per address over a recent window; shared by every ingest replica. */
export function createSignInFailureRepository(db: Knex) {
  return {
    async record(email: string, address: string, executor: Knex = db): Promise<void> {
      await executor('sign_in_failures').insert({ email: normalizeEmail(email), address });
    },

    /** Failures since `since` for the account and for the address, and the oldest of each (for Retry-After). */
    async recent(email: string, address: string, since: Date, executor: Knex = db) {
      const { rows } = await executor.raw<{ rows: { scope: 'account' | 'address'; failures: string; oldest: Date | null }[] }>(
        `SELECT 'account' AS scope, count(*) AS failures, min(at) AS oldest FROM sign_in_failures WHERE email = ? AND at > ?
         UNION ALL
         SELECT 'address', count(*), min(at) FROM sign_in_failures WHERE address = ? AND at > ?`,
        [normalizeEmail(email), since, address, since],
      );
      const of = (scope: 'account' | 'address') => {
        const row = rows.find((r) => r.scope === scope);
        return { failures: Number(row?.failures ?? 0), oldest: row?.oldest ?? null };
      };
      return { account: of('account'), address: of('address') };
    },

    /** A successful sign-in forgets the account's failures; old rows of everyone are pruned on the way. */
    async clearAccount(email: string, olderThan: Date, executor: Knex = db): Promise<void> {
      await executor('sign_in_failures').where({ email: normalizeEmail(email) }).orWhere('at', '<', olderThan).delete();
    },
  };
}

export type SignInFailureRepository = ReturnType<typeof createSignInFailureRepository>;
