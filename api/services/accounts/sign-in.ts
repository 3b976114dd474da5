import { randomBytes } from 'node:crypto';
import type { Repositories } from '../../../db/repositories';
import type { ConsoleSession } from '../../../db/repositories/console-sessions';
import type { User } from '../../../db/repositories/users';
import { HttpError, unauthorized } from '../../http/http-error';
import { decoyHash, passwordMatches } from './passwords';

/** Failed sign-ins are counted over this window, per account and per address, across every replica. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
/** A session lasts this long after its last use, and never longer than the absolute limit after sign-in. */
export const SESSION_IDLE_MS = 7 * 86_400_000;
export const SESSION_ABSOLUTE_MS = 30 * 86_400_000;
/** `last_seen_at` is written at most this often per session. */
const TOUCH_EVERY_MS = 60_000;

export interface SignedIn {
  /** The cookie's value; stored only as its hash. */
  token: string;
  session: ConsoleSession;
  user: User;
}

export interface ClientInfo {
  address: string;
  userAgent: string | null;
}

const tooMany = (scope: string, retryAfterMs: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(429, 'rate_limited', `too many failed sign-ins for this ${scope}; try again in ${Math.ceil(seconds / 60)} minutes`, undefined, { 'retry-after': String(seconds) });
};

/** Passwords, sessions and the sign-in rate limit of the console. */
export function createSignInService(deps: { repos: Pick<Repositories, 'users' | 'consoleSessions' | 'signInFailures'>; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const { users, consoleSessions, signInFailures } = deps.repos;

  async function refuseWhenLimited(email: string, address: string, at: Date): Promise<void> {
    const since = new Date(at.getTime() - SIGN_IN_WINDOW_MS);
    const recent = await signInFailures.recent(email, address, since);
    const retryAfter = (oldest: Date | null) => (oldest === null ? SIGN_IN_WINDOW_MS : oldest.getTime() + SIGN_IN_WINDOW_MS - at.getTime());
    if (recent.account.failures >= MAX_FAILURES_PER_ACCOUNT) throw tooMany('account', retryAfter(recent.account.oldest));
    if (recent.address.failures >= MAX_FAILURES_PER_ADDRESS) throw tooMany('address', retryAfter(recent.address.oldest));
  }

  return {
    /** Opens a session for a user who just proved who they are (sign-in, accepted invitation). */
    async openSession(user: User, client: ClientInfo): Promise<SignedIn> {
      const at = now();
      const token = randomBytes(32).toString('base64url');
      const session = await consoleSessions.create({
        token,
        userId: user.id,
        csrfToken: randomBytes(24).toString('base64url'),
        userAgent: client.userAgent?.slice(0, 300) ?? null,
        address: client.address,
        expiresAt: new Date(at.getTime() + SESSION_IDLE_MS),
      });
      return { token, session, user };
    },

    /** Throws 401 for a wrong address or password (the same words for both), 429 past the failure limits. */
    async signIn(email: string, password: string, client: ClientInfo): Promise<SignedIn> {
      const at = now();
      await refuseWhenLimited(email, client.address, at);
      const user = await users.findByEmail(email);
      const matches = await passwordMatches(user?.passwordHash ?? (await decoyHash()), password);
      if (user === undefined || !matches) {
        await signInFailures.record(email, client.address);
        throw unauthorized('email or password is not right');
      }
      await signInFailures.clearAccount(email, new Date(at.getTime() - SIGN_IN_WINDOW_MS));
      const { passwordHash: _hash, ...profile } = user;
      return this.openSession(profile, client);
    },

    /** The live session of a cookie token and its user; slides the idle expiry. Undefined when it is gone. */
    async resume(token: string): Promise<{ session: ConsoleSession; user: User } | undefined> {
      const at = now();
      const session = await consoleSessions.findLive(token, at);
      if (session === undefined) return undefined;
      const user = await users.find(session.userId);
      if (user === undefined) return undefined;
      if (at.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        const expiresAt = new Date(Math.min(at.getTime() + SESSION_IDLE_MS, session.createdAt.getTime() + SESSION_ABSOLUTE_MS));
        await consoleSessions.touch(session.id, at, expiresAt);
      }
      return { session, user };
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
