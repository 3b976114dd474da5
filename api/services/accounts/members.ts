import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { Invitation } from '../../../db/repositories/invitations';
import type { Member, User } from '../../../db/repositories/users';
import type { Role } from '../../../db/types';
import { badRequest, HttpError, notFound } from '../../http/http-error';
import type { Actor } from '../settings/actor';
import { notThePassword, type PasswordAttempts } from './password-attempts';
import { hashPassword, passwordProblem } from './passwords';

export const INVITATION_LIFETIME_MS = 7 * 86_400_000;

export interface CreatedInvitation extends Invitation {
  /** The link's secret; shown once, stored only as its hash. */
  token: string;
}

const gone = (code: string, message: string) => new HttpError(410, code, message);

function refuseBadPassword(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem !== undefined) throw badRequest(`password ${problem}`, [`password ${problem}`]);
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
  const { users, invitations, changeLog } = deps.repos;

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
     * The operator's way in (`signalbox users create … --owner ws_…`): adds the person with this address to the
     * workspace, creating the account with `password` when it does not exist. Without a password a new person
     * gets an invitation link instead.
     */
    async add(actor: Actor, workspaceId: string, input: { email: string; role: Role; name?: string; password?: string }): Promise<{ user?: User; invitation?: CreatedInvitation }> {
      const existing = await users.findByEmail(input.email);
      if (existing === undefined && input.password === undefined) return { invitation: await this.invite(actor, workspaceId, input.email, input.role) };
      if (input.password !== undefined) refuseBadPassword(input.password, input.email);
      const passwordHash = existing === undefined ? await hashPassword(input.password as string) : undefined;
      const user = await deps.db.transaction(async (trx) => {
        const account = existing ?? (await users.create({ email: input.email, name: input.name ?? '', passwordHash: passwordHash as string }, trx));
        const before = await users.role(workspaceId, account.id, trx);
        await users.putMembership(workspaceId, account.id, input.role, trx);
        await changeLog.record({ workspaceId, actor, action: 'member.put', target: account.email, before: before ? { role: before } : null, after: { role: input.role } }, trx);
        return account;
      });
      return { user: { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt } };
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

    async invite(actor: Actor, workspaceId: string, email: string, role: Role): Promise<CreatedInvitation> {
      const token = randomBytes(32).toString('base64url');
      return deps.db.transaction(async (trx) => {
        const invitation = await invitations.create({ workspaceId, email, role, token, invitedBy: actor, expiresAt: new Date(now().getTime() + INVITATION_LIFETIME_MS) }, trx);
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

    /** The invitation behind a link, if it can still be accepted; 404 for an unknown link, 410 when used up. */
    async pendingInvitation(token: string): Promise<Invitation & { accountExists: boolean }> {
      const invitation = await invitations.findByToken(token);
      if (invitation === undefined) throw notFound('this invitation link is not valid: ask for a new one');
      if (invitation.acceptedAt !== null) throw gone('invitation_used', 'this invitation was already accepted: sign in instead');
      if (invitation.revokedAt !== null) throw gone('invitation_revoked', 'this invitation was withdrawn: ask for a new one');
      if (invitation.expiresAt.getTime() <= now().getTime()) throw gone('invitation_expired', 'this invitation has expired: ask for a new one');
      return { ...invitation, accountExists: (await users.findByEmail(invitation.email)) !== undefined };
    },

    /**
     * Accepts an invitation once: a new person sets a password (and name); someone with an account proves it with
     * theirs, under the sign-in limits (429 past them, even with the right password). Returns the user, who is then
     * signed in.
     */
    async accept(token: string, input: { password: string; name?: string }, address: string): Promise<User> {
      const invitation = await this.pendingInvitation(token);
      const existing = await users.findByEmail(invitation.email);
      if (existing !== undefined && !(await deps.attempts.check(invitation.email, existing.passwordHash, input.password, address))) {
        throw notThePassword('password');
      }
      if (existing === undefined) refuseBadPassword(input.password, invitation.email);
      const passwordHash = existing === undefined ? await hashPassword(input.password) : undefined;
      return deps.db.transaction(async (trx) => {
        const account = existing ?? (await users.create({ email: invitation.email, name: input.name ?? '', passwordHash: passwordHash as string }, trx));
        if (!(await invitations.accept(invitation.id, account.id, now(), trx))) throw gone('invitation_used', 'this invitation was already accepted: sign in instead');
        const before = await users.role(invitation.workspaceId, account.id, trx);
        await users.putMembership(invitation.workspaceId, account.id, invitation.role, trx);
        await changeLog.record(
          { workspaceId: invitation.workspaceId, actor: `user:${account.id}`, action: 'invitation.accept', target: account.email, before: before ? { role: before } : null, after: { role: invitation.role } },
          trx,
        );
        return { id: account.id, email: account.email, name: account.name, createdAt: account.createdAt };
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
