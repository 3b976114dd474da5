import type { Knex } from 'knex';
import type { InvitationRepository } from '../../../db/repositories/invitations';
import { HttpError } from '../../http/http-error';

/** Invitations a person may make, across every workspace, in an hour; and people may make in one workspace in a day. */
export const INVITATIONS_PER_INVITER = 20;
export const INVITER_WINDOW_MS = 60 * 60_000;
export const INVITATIONS_PER_WORKSPACE = 50;
export const WORKSPACE_WINDOW_MS = 24 * 60 * 60_000;

const inWords = (seconds: number) => (seconds <= 90 * 60 ? `${Math.ceil(seconds / 60)} minutes` : `${Math.ceil(seconds / 3600)} hours`);

/**
 * Refuses another invitation past either limit (429 with Retry-After and when the next one can be sent): an invitation
 * makes Signalbox's own sender mail someone, and anyone signed in can own a workspace. Counted in PostgreSQL, in the
 * transaction that makes the invitation, so every API process shares the count.
 */
export async function refuseTooManyInvitations(invitations: InvitationRepository, input: { invitedBy: string; workspaceId: string }, at: Date, trx: Knex.Transaction): Promise<void> {
  const recent = await invitations.countRecent(
    { invitedBy: input.invitedBy, inviterSince: new Date(at.getTime() - INVITER_WINDOW_MS), workspaceId: input.workspaceId, workspaceSince: new Date(at.getTime() - WORKSPACE_WINDOW_MS) },
    trx,
  );
  const limited =
    recent.inviter.made >= INVITATIONS_PER_INVITER
      ? { oldest: recent.inviter.oldest, windowMs: INVITER_WINDOW_MS, what: `you have sent ${INVITATIONS_PER_INVITER} invitations in the last hour, the most allowed` }
      : recent.workspace.made >= INVITATIONS_PER_WORKSPACE
        ? { oldest: recent.workspace.oldest, windowMs: WORKSPACE_WINDOW_MS, what: `this workspace has sent ${INVITATIONS_PER_WORKSPACE} invitations in the last 24 hours, the most allowed` }
        : undefined;
  if (limited === undefined) return;
  const seconds = Math.max(1, Math.ceil(((limited.oldest?.getTime() ?? at.getTime()) + limited.windowMs - at.getTime()) / 1000));
  throw new HttpError(429, 'rate_limited', `${limited.what}: the next invitation can be sent in ${inWords(seconds)}`, undefined, { 'retry-after': String(seconds) });
}
