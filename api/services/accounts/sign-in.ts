import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { ConsoleSession } from '../../../db/repositories/console-sessions';
import type { User } from '../../../db/repositories/users';
import { badRequest, unauthorized } from '../../http/http-error';
import { notThePassword, type PasswordAttempts } from './password-attempts';
import { hashPassword, passwordProblem } from './passwords';

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

/** Passwords and sessions of the console; every password typed in is checked under the failure limits (`attempts`). */
export function createSignInService(deps: { db: Knex; repos: Pick<Repositories, 'users' | 'consoleSessions'>; attempts: PasswordAttempts; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const { users, consoleSessions } = deps.repos;

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
      const user = await users.findByEmail(email);
      if (!(await deps.attempts.check(email, user?.passwordHash, password, client.address)) || user === undefined) {
        throw unauthorized('email or password is not right');
      }
      const { passwordHash: _hash, emailConfirmedAt: _confirmed, ...profile } = user;
      return this.openSession(profile, client);
    },

    /**
     * Sets a new password once the current one is proven (400 when it is not, 429 past the limits) and ends every
     * other session of the person: whoever knew the old password is signed out.
     */
    async changePassword(user: User, passwords: { currentPassword: string; newPassword: string }, client: ClientInfo, keepSessionId: string): Promise<void> {
      const account = await users.findByEmail(user.email);
      if (!(await deps.attempts.check(user.email, account?.passwordHash, passwords.currentPassword, client.address))) throw notThePassword('currentPassword');
      const problem = passwordProblem(passwords.newPassword, user.email);
      if (problem !== undefined) throw badRequest(`newPassword ${problem}`, [`newPassword ${problem}`]);
      const passwordHash = await hashPassword(passwords.newPassword);
      await deps.db.transaction(async (trx) => {
        await users.setPassword(user.id, passwordHash, trx);
        await consoleSessions.revokeOthers(user.id, keepSessionId, trx);
      });
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
