import { oneLine, type Mailer } from '../../../notify/mailer';
import { failureWords } from '../../../notify/failure-words';
import type { PublicLinks } from '../../http/public-links';

export interface InvitationToMail {
  email: string;
  role: string;
  token: string;
  expiresAt: Date;
}

/** Whether the invitation went out by mail, or why not, in words. */
export type InvitationMailOutcome = { sentTo: string } | { notSent: string };

/** Mails an invitation's link (under PUBLIC_URL) to the person invited, saying who invited them to what. */
export function createInvitationMail(deps: { mailer: Mailer; links: Pick<PublicLinks, 'invitation'> }) {
  return {
    /** Whether a mail server is set up: only then do invitations go by mail, their link kept from whoever invites. */
    configured: deps.mailer.configured,

    async send(invitation: InvitationToMail, context: { workspaceName: string; invitedBy: string }): Promise<InvitationMailOutcome> {
      const text = [
        `${oneLine(context.invitedBy)} invites you to the Signalbox workspace "${oneLine(context.workspaceName)}" as ${invitation.role}.`,
        '',
        `Accept the invitation: ${deps.links.invitation(invitation.token)}`,
        '',
        `The link works once, until ${invitation.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. If you did not expect it, ignore this mail.`,
      ].join('\n');
      try {
        await deps.mailer.send({ to: [invitation.email], subject: `${context.invitedBy} invites you to ${context.workspaceName} on Signalbox`, text });
        return { sentTo: invitation.email };
      } catch (error) {
        return { notSent: failureWords(error, 'the mail server') };
      }
    },
  };
}

export type InvitationMail = ReturnType<typeof createInvitationMail>;
