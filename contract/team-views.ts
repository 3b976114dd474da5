import { z } from 'zod';
import { instant, roleView } from './views';

/* The console's people, invitations, sessions and password resets. Imports nothing but zod and views.ts, for the console's build. */

export const memberView = z.strictObject({ id: z.string(), email: z.string(), name: z.string(), createdAt: instant, role: roleView, memberSince: instant });
export type MemberView = z.infer<typeof memberView>;

export const invitationView = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  email: z.string(),
  role: roleView,
  invitedBy: z.string().meta({ description: 'The address of who invited' }),
  delivery: z.enum(['mail', 'operator', 'shown']).meta({
    description: 'Who held the link: `mail` only the mailbox; `operator` the operator (settings API); `shown` whoever invited, as no mail server is set up (an account it makes is not confirmed)',
  }),
  createdAt: instant,
  expiresAt: instant,
  acceptedAt: instant.nullable(),
  revokedAt: instant.nullable(),
});
export type InvitationView = z.infer<typeof invitationView>;

/** `GET …/members`: invitations are listed to owners only (empty for the others). */
export const membersView = z.strictObject({ members: z.array(memberView), invitations: z.array(invitationView) });
export type MembersView = z.infer<typeof membersView>;

/** An invitation just made: whether it went out by mail, and its link only when no mail server is set up. */
export const createdInvitationView = z.strictObject({
  ...invitationView.shape,
  url: z.string().nullable().meta({ description: 'The link, to pass on by hand, only when no mail server is set up (`delivery` `shown`); null when it is mailed: only the mailbox gets it' }),
  mail: z.union([z.strictObject({ sentTo: z.string() }), z.strictObject({ notSent: z.string().meta({ description: 'Why not, in words: no mail server set up, or what the mail server answered' }) })]),
});
export type CreatedInvitationView = z.infer<typeof createdInvitationView>;

/** `GET /console/api/invitations/:token`: what a live invitation link offers, before anyone signs in. */
export const pendingInvitationView = z.strictObject({
  email: z.string(),
  role: roleView,
  workspaceName: z.string(),
  expiresAt: instant,
  password: z.enum(['choose', 'current', 'replace', 'current-or-choose']).meta({
    description:
      'What joining asks for. `choose`: a new account\'s password (and name). `current`: the password of the account this address has. `replace`: a new password in place of the one of an account whose address was never confirmed (its sessions end). `current-or-choose`: the link was shown to whoever invited, so nothing is said of accounts: the password of the address\'s account if it has one, else a new one',
  }),
});
export type PendingInvitationView = z.infer<typeof pendingInvitationView>;

/** `POST /console/api/password-resets`: the same words whether or not the address has an account. */
export const passwordResetRequestedView = z.strictObject({ message: z.string() });
export type PasswordResetRequestedView = z.infer<typeof passwordResetRequestedView>;

/** `GET /console/api/password-resets/:token`: the address a live link sets the password of. */
export const passwordResetLinkView = z.strictObject({ email: z.string() });
export type PasswordResetLinkView = z.infer<typeof passwordResetLinkView>;

/** `GET /console/api/sessions`: the signed-in person's live sessions, the one asking marked `current`. */
export const liveSessionsView = z.strictObject({
  sessions: z.array(
    z.strictObject({
      id: z.string(),
      current: z.boolean(),
      userAgent: z.string().nullable(),
      address: z.string().nullable(),
      createdAt: instant,
      lastSeenAt: instant,
      expiresAt: instant,
    }),
  ),
});
export type LiveSessionsView = z.infer<typeof liveSessionsView>;

/** `POST /admin/workspaces/:workspaceId/members`: what was done, the account given the role, or the invitation made instead. */
export const addedMemberView = z.strictObject({
  account: z.enum(['created', 'existing', 'replaced-unconfirmed', 'invited']).meta({
    description:
      '`created`: a new account with the password given. `existing`: the address had a confirmed account, which got the role and keeps its password and name. `replaced-unconfirmed`: the address had an account never confirmed: the password given replaced its own, its sessions ended, it is confirmed and got the role. `invited`: no role given; an invitation instead (no account yet, or one never confirmed, and no password given)',
  }),
  passwordSet: z.boolean().meta({ description: 'Whether the password given is now the account\'s' }),
  message: z.string().meta({ description: 'What was done, in a sentence (the CLI prints it)' }),
  user: z.strictObject({ id: z.string(), email: z.string(), name: z.string(), createdAt: instant }).nullable().meta({ description: 'null when an invitation was made instead' }),
  role: roleView,
  invitation: invitationView.optional(),
  invitationUrl: z.string().nullable().meta({ description: 'The invitation link, to send the person; it works once' }),
});
export type AddedMemberView = z.infer<typeof addedMemberView>;
