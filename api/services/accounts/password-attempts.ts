import type { Repositories } from '../../../db/repositories';
import { badRequest, HttpError } from '../../http/http-error';
import { decoyHash, passwordMatches } from './passwords';

/** Failed password checks are counted over this window, per account and per address, across every replica. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** 400 naming the field whose password is not the account's. */
export const notThePassword = (field: string) => badRequest(`${field} is not the password of this account`, [`${field} is not the password of this account`]);

const tooMany = (scope: string, retryAfterMs: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(429, 'rate_limited', `too many failed sign-ins for this ${scope}; try again in ${Math.ceil(seconds / 60)} minutes`, undefined, { 'retry-after': String(seconds) });
};

/**
 * Every place a person types an existing password (sign-in, accepting an invitation into an existing account,
 * changing the password) goes through `check`, so one set of limits holds for all of them: a guess anywhere counts
 * everywhere, and past the limits even the right password is refused.
 */
export function createPasswordAttempts(deps: { repos: Pick<Repositories, 'signInFailures'>; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const { signInFailures } = deps.repos;

  async function refuseWhenLimited(email: string, address: string, at: Date): Promise<void> {
    const since = new Date(at.getTime() - SIGN_IN_WINDOW_MS);
    const recent = await signInFailures.recent(email, address, since);
    const retryAfter = (oldest: Date | null) => (oldest === null ? SIGN_IN_WINDOW_MS : oldest.getTime() + SIGN_IN_WINDOW_MS - at.getTime());
    if (recent.account.failures >= MAX_FAILURES_PER_ACCOUNT) throw tooMany('account', retryAfter(recent.account.oldest));
    if (recent.address.failures >= MAX_FAILURES_PER_ADDRESS) throw tooMany('address', retryAfter(recent.address.oldest));
  }

  return {
    /**
     * Whether `password` is the one of the account at `email` (`passwordHash` undefined: no such account, checked
     * against a decoy so that it costs as long). Throws 429 with Retry-After past the limits; a wrong password counts
     * as a failure, a right one forgets the account's failures.
     */
    async check(email: string, passwordHash: string | undefined, password: string, address: string): Promise<boolean> {
      const at = now();
      await refuseWhenLimited(email, address, at);
      const matches = await passwordMatches(passwordHash ?? (await decoyHash()), password);
      if (passwordHash === undefined || !matches) {
        await signInFailures.record(email, address);
        return false;
      }
      await signInFailures.clearAccount(email, new Date(at.getTime() - SIGN_IN_WINDOW_MS));
      return true;
    },
  };
}

export type PasswordAttempts = ReturnType<typeof createPasswordAttempts>;
