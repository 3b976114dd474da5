import { z } from 'zod';
import { instant, roleView } from './views';

/* The console's people, invitations and sessions. Imports nothing but zod and views.ts, for the console's build. */

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
export type LiveSessionView = z.infer<typeof liveSessionsView>['sessions'][number];

/** `POST /admin/workspaces/:workspaceId/members`: the account given the role, or, for a new person without a password, the invitation. */
export const addedMemberView = z.strictObject({
  user: z.strictObject({ id: z.string(), email: z.string(), name: z.string(), createdAt: instant }).nullable().meta({ description: 'null when an invitation was made instead' }),
  role: roleView,
  invitation: invitationView.optional(),
  invitationUrl: z.string().nullable().meta({ description: 'The invitation link, to send the person; it works once' }),
});
export type AddedMemberView = z.infer<typeof addedMemberView>;
