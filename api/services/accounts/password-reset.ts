import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import { normalizeEmail } from '../../../db/repositories/users';
import type { Mailer } from '../../../notify/mailer';
import type { PublicLinks } from '../../http/public-links';
import { badRequest, HttpError, notFound } from '../../http/http-error';
import { hashPassword, passwordProblem } from './passwords';

/** A reset link works once, for this long. */
export const RESET_LINK_MS = 30 * 60_000;
/** Requests are counted over this window, whether or not the address has an account. */
export const RESET_WINDOW_MS = 60 * 60_000;
export const MAX_RESETS_PER_EMAIL = 3;
export const MAX_RESETS_PER_ADDRESS = 10;

const linkGone = () => notFound('this link to set a new password is not valid, was used already or has expired: ask for a new one');

export interface ResetLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * "Forgot password": a mail with a single-use expiring link to an account's address, answered the same whether or
 * not the address has an account (the mail is sent after the answer), and limited per address and per client.
 */
export function createPasswordResetService(deps: { db: Knex; repos: Pick<Repositories, 'users' | 'passwordResets' | 'consoleSessions'>; mailer: Mailer; log: ResetLog; links: Pick<PublicLinks, 'passwordReset'>; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const { users, passwordResets, consoleSessions } = deps.repos;

  async function refuseWhenLimited(email: string, address: string, at: Date): Promise<void> {
    const recent = await passwordResets.recentRequests(email, address, new Date(at.getTime() - RESET_WINDOW_MS));
    const limited = recent.email.count >= MAX_RESETS_PER_EMAIL ? recent.email : recent.address.count >= MAX_RESETS_PER_ADDRESS ? recent.address : undefined;
    if (limited === undefined) return;
    const seconds = Math.max(1, Math.ceil(((limited.oldest?.getTime() ?? at.getTime()) + RESET_WINDOW_MS - at.getTime()) / 1000));
    throw new HttpError(429, 'rate_limited', `too many requests for a new password; try again in ${Math.ceil(seconds / 60)} minutes`, undefined, { 'retry-after': String(seconds) });
  }

  return {
    /** Sends the link (under `PUBLIC_URL`) when the address has an account. */
    async request(emailTyped: string, address: string): Promise<void> {
      const email = normalizeEmail(emailTyped);
      const at = now();
      await refuseWhenLimited(email, address, at);
      await passwordResets.recordRequest(email, address);
      const user = await users.findByEmail(email);
      if (user === undefined) return;
      const token = await passwordResets.create(user.id, new Date(at.getTime() + RESET_LINK_MS));
      const text = `Someone (we hope you) asked to set a new password for ${user.email} on Signalbox.\n\nSet it here; the link works once, for 30 minutes:\n${deps.links.passwordReset(token)}\n\nIf it was not you, ignore this mail: your password stays as it is.`;
      deps.mailer.send({ to: [user.email], subject: 'Set a new Signalbox password', text }).catch((error: unknown) => deps.log.warn({ err: error, userId: user.id }, 'could not send the password reset mail'));
    },

    /** The address a live link is for (the page shows it); 404 when the link is gone. */
    async check(token: string): Promise<{ email: string }> {
      const reset = await passwordResets.findLive(token, now());
      const user = reset && (await users.find(reset.userId));
      if (user === undefined) throw linkGone();
      return { email: user.email };
    },

    /**
     * Sets the new password (the same rules as a change), uses the link, and ends every session of the account. The
     * link went only to the account's mailbox: the address is confirmed.
     */
    async reset(token: string, newPassword: string): Promise<void> {
      const reset = await passwordResets.findLive(token, now());
      const user = reset && (await users.find(reset.userId));
      if (reset === undefined || user === undefined) throw linkGone();
      const problem = passwordProblem(newPassword, user.email);
      if (problem !== undefined) throw badRequest(`newPassword ${problem}`, [`newPassword ${problem}`]);
      const passwordHash = await hashPassword(newPassword);
      await deps.db.transaction(async (trx) => {
        if (!(await passwordResets.use(reset.id, user.id, trx))) throw linkGone();
        await users.confirmWithPassword(user.id, { passwordHash }, now(), trx);
        await consoleSessions.revokeAll(user.id, trx);
      });
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
