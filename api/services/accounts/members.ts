import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { Invitation } from '../../../db/repositories/invitations';
import { normalizeEmail, type Member, type User } from '../../../db/repositories/users';
import type { InvitationDelivery, Role } from '../../../db/types';
import { badRequest, HttpError, notFound } from '../../http/http-error';
import type { Actor } from '../settings/actor';
import { refuseTooManyInvitations } from './invitation-limits';
import { notThePassword, type PasswordAttempts } from './password-attempts';
import { hashPassword, passwordProblem } from './passwords';

export const INVITATION_LIFETIME_MS = 7 * 86_400_000;

export interface CreatedInvitation extends Invitation {
  /** The link's secret; shown once, stored only as its hash. */
  token: string;
}

const gone = (code: string, message: string) => new HttpError(410, code, message);

/** What the person opening an invitation link is asked for; a link shown to its inviter says nothing of accounts. */
export type PasswordAsked = 'choose' | 'current' | 'replace' | 'current-or-choose';

/** What the operator's `users create` did, in a sentence (`message`) for the CLI to print. */
export interface AddedMember {
  account: 'created' | 'existing' | 'replaced-unconfirmed' | 'invited';
  passwordSet: boolean;
  message: string;
  user?: User;
  invitation?: CreatedInvitation;
}

const userOf = (account: User): User => ({ id: account.id, email: account.email, name: account.name, createdAt: account.createdAt });

/** " The password and name given were not used." for what the operator gave that was not used; '' when nothing. */
function notUsed(given: { password?: string; name?: string }): string {
  const unused = (['password', 'name'] as const).filter((field) => given[field] !== undefined);
  return unused.length === 0 ? '' : ` The ${unused.join(' and ')} given ${unused.length === 1 ? 'was' : 'were'} not used.`;
}

function refuseBadPassword(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem !== undefined) throw badRequest(`password ${problem}`, [`password ${problem}`]);
}

async function newPasswordHash(password: string, email: string): Promise<string> {
  refuseBadPassword(password, email);
  return hashPassword(password);
}

/**
 * People of a workspace: accounts, roles and invitations by link. Every change is written with its change-log entry
 * in one transaction; the last owner of a workspace can be neither removed nor demoted.
 */
export function createMemberService(deps: {
  db: Knex;
  repos: Pick<Repositories, 'users' | 'invitations' | 'changeLog' | 'consoleSessions'>;
  /** An existing account's password, typed in to accept an invitation, is checked under the sign-in limits. */
  attempts: PasswordAttempts;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const { users, invitations, changeLog, consoleSessions } = deps.repos;

  async function liveInvitation(token: string): Promise<Invitation> {
    const invitation = await invitations.findByToken(token);
    if (invitation === undefined) throw notFound('this invitation link is not valid: ask for a new one');
    if (invitation.acceptedAt !== null) throw gone('invitation_used', 'this invitation was already accepted: sign in instead');
    if (invitation.revokedAt !== null) throw gone('invitation_revoked', 'this invitation was withdrawn: ask for a new one');
    if (invitation.expiresAt.getTime() <= now().getTime()) throw gone('invitation_expired', 'this invitation has expired: ask for a new one');
    return invitation;
  }

  async function grantRole(actor: Actor, workspaceId: string, account: User, role: Role, trx: Knex): Promise<void> {
    const before = await users.role(workspaceId, account.id, trx);
    await users.putMembership(workspaceId, account.id, role, trx);
    await changeLog.record({ workspaceId, actor, action: 'member.put', target: account.email, before: before ? { role: before } : null, after: { role } }, trx);
  }

  async function keepAnOwner(workspaceId: string, member: Member, trx: Knex): Promise<void> {
    if (member.role === 'owner' && (await users.ownerCount(workspaceId, trx)) <= 1) {
      throw new HttpError(409, 'last_owner', 'a workspace keeps at least one owner: make someone else owner first');
    }
  }

  async function memberOf(workspaceId: string, userId: string, trx: Knex): Promise<Member> {
    const member = (await users.members(workspaceId, trx)).find((m) => m.id === userId);
    if (member === undefined) throw notFound(`member ${userId} does not exist in this workspace`);
    return member;
  }

  return {
    list: (workspaceId: string) => users.members(workspaceId),

    /**
     * The operator's way in (`signalbox users create … --owner ws_…`): gives the person with this address the role,
     * never ignoring what was given, and never to an account whose password someone unproven set. A new address with
     * a password becomes a confirmed account (the operator vouches for it); without one, an invitation. A confirmed
     * account gets the role and keeps its password and name. An unconfirmed account gets the operator's password in
     * place of its own, loses its sessions and is confirmed; without a password it gets an invitation instead of the role.
     */
    async add(actor: Actor, workspaceId: string, input: { email: string; role: Role; name?: string; password?: string }): Promise<AddedMember> {
      const existing = await users.findByEmail(input.email);
      const email = existing?.email ?? normalizeEmail(input.email);
      const confirmed = existing !== undefined && existing.emailConfirmedAt !== null;
      if (input.password !== undefined) refuseBadPassword(input.password, email);

      if (input.password === undefined && !confirmed) {
        const invitation = await this.invite(actor, workspaceId, email, input.role, 'operator');
        const message =
          existing === undefined
            ? `No account uses ${email} yet: send them the invitation link, where they choose their password and name.${notUsed({ name: input.name })}`
            : `${email} has an account whose address was never confirmed, so whoever chose its password may not own the mailbox: the role was not given to it. Send them the invitation link, where they choose a new password that replaces the old one, or add them again with a password.${notUsed({ name: input.name })}`;
        return { account: 'invited', passwordSet: false, invitation, message };
      }
      if (confirmed) {
        await deps.db.transaction((trx) => grantRole(actor, workspaceId, existing, input.role, trx));
        const message = `${email} already had an account: it is now ${input.role} of this workspace and keeps its own password and name.${notUsed({ password: input.password, name: input.name })}`;
        return { account: 'existing', passwordSet: false, user: userOf(existing), message };
      }
      const passwordHash = await hashPassword(input.password as string);
      const user = await deps.db.transaction(async (trx) => {
        const account = existing ?? (await users.create({ email, name: input.name ?? '', passwordHash, emailConfirmedAt: now() }, trx));
        if (existing !== undefined) {
          await users.confirmWithPassword(existing.id, { passwordHash, name: input.name }, now(), trx);
          await consoleSessions.revokeAll(existing.id, trx);
        }
        await grantRole(actor, workspaceId, account, input.role, trx);
        return account;
      });
      if (existing === undefined) {
        return { account: 'created', passwordSet: true, user: userOf(user), message: `Created the account ${email}, ${input.role} of this workspace: it signs in with this email and the password given.` };
      }
      const message = `${email} had an account whose address was never confirmed: the password given replaced its password, every session of it was ended, and it is now confirmed and ${input.role} of this workspace. It signs in with this email and the password given.`;
      return { account: 'replaced-unconfirmed', passwordSet: true, user: userOf({ ...user, name: input.name ?? user.name }), message };
    },

    async setRole(actor: Actor, workspaceId: string, userId: string, role: Role): Promise<Member> {
      return deps.db.transaction(async (trx) => {
        const member = await memberOf(workspaceId, userId, trx);
        if (member.role === role) return member;
        if (role !== 'owner') await keepAnOwner(workspaceId, member, trx);
        await users.putMembership(workspaceId, userId, role, trx);
        await changeLog.record({ workspaceId, actor, action: 'member.role', target: member.email, before: { role: member.role }, after: { role } }, trx);
        return { ...member, role };
      });
    },

    async remove(actor: Actor, workspaceId: string, userId: string): Promise<void> {
      await deps.db.transaction(async (trx) => {
        const member = await memberOf(workspaceId, userId, trx);
        await keepAnOwner(workspaceId, member, trx);
        await users.removeMembership(workspaceId, userId, trx);
        await changeLog.record({ workspaceId, actor, action: 'member.remove', target: member.email, before: { role: member.role }, after: null }, trx);
      });
    },

    /**
     * A single-use link for `email` to join as `role`, delivered as `delivery` says (which decides what accepting it
     * proves). People's invitations are limited per inviter and per workspace (429); the operator's are not.
     */
    async invite(actor: Actor, workspaceId: string, email: string, role: Role, delivery: InvitationDelivery): Promise<CreatedInvitation> {
      const token = randomBytes(32).toString('base64url');
      return deps.db.transaction(async (trx) => {
        const at = now();
        if (delivery !== 'operator') await refuseTooManyInvitations(invitations, { invitedBy: actor, workspaceId }, at, trx);
        const invitation = await invitations.create({ workspaceId, email, role, token, invitedBy: actor, delivery, expiresAt: new Date(at.getTime() + INVITATION_LIFETIME_MS) }, trx);
        await changeLog.record({ workspaceId, actor, action: 'invitation.create', target: invitation.email, before: null, after: { role, expiresAt: invitation.expiresAt } }, trx);
        return { ...invitation, token };
      });
    },

    openInvitations: (workspaceId: string) => invitations.listOpen(workspaceId, now()),

    async revokeInvitation(actor: Actor, workspaceId: string, invitationId: string): Promise<Invitation> {
      return deps.db.transaction(async (trx) => {
        const revoked = await invitations.revoke(workspaceId, invitationId, trx);
        if (revoked === undefined) throw notFound(`open invitation ${invitationId} does not exist in this workspace`);
        await changeLog.record({ workspaceId, actor, action: 'invitation.revoke', target: revoked.email, before: { role: revoked.role }, after: null }, trx);
        return revoked;
      });
    },

    /**
     * The invitation behind a link, if it can still be accepted, and what its page asks for. A link shown to its
     * inviter says nothing of accounts: whoever holds it may not own the address.
     */
    async pendingInvitation(token: string): Promise<Invitation & { password: PasswordAsked }> {
      const invitation = await liveInvitation(token);
      if (invitation.delivery === 'shown') return { ...invitation, password: 'current-or-choose' };
      const account = await users.findByEmail(invitation.email);
      return { ...invitation, password: account === undefined ? 'choose' : account.emailConfirmedAt === null ? 'replace' : 'current' };
    },

    /**
     * Accepts an invitation once, and returns the user, who is then signed in. A new person chooses a password (and
     * name): the account is confirmed when the link was mailed or the operator's, not when it was shown to a console
     * inviter. A confirmed account proves itself with its password, as does any account through a shown link, under the
     * sign-in limits (429 past them, even with the right password). An unconfirmed account reached through a mailed or
     * the operator's link gets the password chosen now in place of the unproven one, loses its sessions, and is confirmed.
     */
    async accept(token: string, input: { password: string; name?: string }, address: string): Promise<User> {
      const invitation = await liveInvitation(token);
      const proven = invitation.delivery !== 'shown';
      const existing = await users.findByEmail(invitation.email);
      const replaces = existing !== undefined && existing.emailConfirmedAt === null && proven;
      if (existing !== undefined && !replaces && !(await deps.attempts.check(invitation.email, existing.passwordHash, input.password, address))) {
        throw notThePassword('password');
      }
      const chosen = existing === undefined || replaces ? await newPasswordHash(input.password, invitation.email) : undefined;
      return deps.db.transaction(async (trx) => {
        const at = now();
        const account = existing ?? (await users.create({ email: invitation.email, name: input.name ?? '', passwordHash: chosen as string, emailConfirmedAt: proven ? at : null }, trx));
        if (!(await invitations.accept(invitation.id, account.id, at, trx))) throw gone('invitation_used', 'this invitation was already accepted: sign in instead');
        if (replaces) {
          await users.confirmWithPassword(account.id, { passwordHash: chosen as string, name: input.name }, at, trx);
          await consoleSessions.revokeAll(account.id, trx);
        }
        const before = await users.role(invitation.workspaceId, account.id, trx);
        await users.putMembership(invitation.workspaceId, account.id, invitation.role, trx);
        await changeLog.record(
          { workspaceId: invitation.workspaceId, actor: `user:${account.id}`, action: 'invitation.accept', target: account.email, before: before ? { role: before } : null, after: { role: invitation.role } },
          trx,
        );
        return userOf({ ...account, name: replaces ? (input.name ?? account.name) : account.name });
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
