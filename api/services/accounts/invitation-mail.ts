import { NoMailServerError, type Mailer } from '../../../notify/mailer';
import type { PublicLinks } from '../../http/public-links';

export interface InvitationToMail {
  email: string;
  role: string;
  token: string;
  expiresAt: Date;
}

/** Whether the invitation went out by mail, or why not (the link is shown for copying either way). */
export type InvitationMailOutcome = { sentTo: string } | { notSent: string };

/** Mails an invitation's link (under PUBLIC_URL) to the person invited, saying who invited them to what. */
export function createInvitationMail(deps: { mailer: Mailer; links: Pick<PublicLinks, 'invitation'> }) {
  return async function mailInvitation(invitation: InvitationToMail, context: { workspaceName: string; invitedBy: string }): Promise<InvitationMailOutcome> {
    const text = [
      `${context.invitedBy} invites you to the Signalbox workspace "${context.workspaceName}" as ${invitation.role}.`,
      '',
      `Accept the invitation: ${deps.links.invitation(invitation.token)}`,
      '',
      `The link works once, until ${invitation.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. If you did not expect it, ignore this mail.`,
    ].join('\n');
    try {
      await deps.mailer.send({ to: [invitation.email], subject: `${context.invitedBy} invites you to ${context.workspaceName} on Signalbox`, text });
      return { sentTo: invitation.email };
    } catch (error) {
      if (error instanceof NoMailServerError) return { notSent: 'this Signalbox has no mail server set up' };
      return { notSent: error instanceof Error ? error.message : String(error) };
    }
  };
}

export type InvitationMail = ReturnType<typeof createInvitationMail>;
