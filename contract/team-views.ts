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
  createdAt: instant,
  expiresAt: instant,
  acceptedAt: instant.nullable(),
  revokedAt: instant.nullable(),
});
export type InvitationView = z.infer<typeof invitationView>;

/** `GET …/members`: invitations are listed to owners only (empty for the others). */
export const membersView = z.strictObject({ members: z.array(memberView), invitations: z.array(invitationView) });
export type MembersView = z.infer<typeof membersView>;

/** An invitation just made: its link, shown for copying, and whether it went out by mail. */
export const createdInvitationView = z.strictObject({
  ...invitationView.shape,
  url: z.string().meta({ description: 'The invitation link: it works once' }),
  mail: z.union([z.strictObject({ sentTo: z.string() }), z.strictObject({ notSent: z.string().meta({ description: 'Why not, e.g. no mail server set up' }) })]),
});
export type CreatedInvitationView = z.infer<typeof createdInvitationView>;

/** `GET /console/api/invitations/:token`: what a live invitation link offers, before anyone signs in. */
export const pendingInvitationView = z.strictObject({
  email: z.string(),
  role: roleView,
  workspaceName: z.string(),
  expiresAt: instant,
  accountExists: z.boolean().meta({ description: 'Whether the address has an account already: then its password joins, else the person chooses one' }),
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

/** `POST /admin/workspaces/:workspaceId/members`: the account given the role, or, for a new person without a password, the invitation. */
export const addedMemberView = z.strictObject({
  user: z.strictObject({ id: z.string(), email: z.string(), name: z.string(), createdAt: instant }).nullable().meta({ description: 'null when an invitation was made instead' }),
  role: roleView,
  invitation: invitationView.optional(),
  invitationUrl: z.string().nullable().meta({ description: 'The invitation link, to send the person; it works once' }),
});
export type AddedMemberView = z.infer<typeof addedMemberView>;
