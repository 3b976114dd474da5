import type { FastifyPluginAsync } from 'fastify';
import type { InvitationMail } from '../../services/accounts/invitation-mail';
import type { MemberService } from '../../services/accounts/members';
import type { PublicLinks } from '../../http/public-links';
import { parseOrReject } from '../../http/validation';
import { actorOf, currentWorkspace, needs, signedInUser } from '../auth';
import { invitationParams, inviteBody, memberParams, roleBody } from '../../../contract/console/workspace-routes';

/** `/members` and `/invitations`: everyone sees who has access; only owners change it. */
export const memberRoutes: FastifyPluginAsync<{ members: MemberService; links: PublicLinks; mailInvitation: InvitationMail }> = async (app, { members, links, mailInvitation }) => {
  const owner = { preHandler: needs('owner') };

  app.get('/members', async (request) => {
    const workspaceId = currentWorkspace(request).id;
    const [people, invitations] = await Promise.all([members.list(workspaceId), request.consoleWorkspace?.role === 'owner' ? members.openInvitations(workspaceId) : []]);
    return { members: people, invitations };
  });

  app.patch('/members/:userId', owner, async (request) => {
    const { userId } = parseOrReject(memberParams, request.params, 'path');
    const { role } = parseOrReject(roleBody, request.body, 'body');
    return members.setRole(actorOf(request), currentWorkspace(request).id, userId, role);
  });

  app.delete('/members/:userId', owner, async (request) => {
    const { userId } = parseOrReject(memberParams, request.params, 'path');
    await members.remove(actorOf(request), currentWorkspace(request).id, userId);
    return { removed: true };
  });

  /**
   * With a mail server the link goes only to the mailbox, never in the answer: accepting it proves the address. Without
   * one the inviter is shown the link to pass on by hand, and an account it makes is not confirmed.
   */
  app.post('/invitations', owner, async (request, reply) => {
    const { email, role } = parseOrReject(inviteBody, request.body, 'body');
    const workspace = currentWorkspace(request);
    const delivery = mailInvitation.configured ? 'mail' : 'shown';
    const { token, ...invitation } = await members.invite(actorOf(request), workspace.id, email, role, delivery);
    if (delivery === 'shown') return reply.code(201).send({ ...invitation, url: links.invitation(token), mail: { notSent: 'this Signalbox has no mail server set up' } });
    const mail = await mailInvitation.send({ ...invitation, token }, { workspaceName: workspace.name, invitedBy: signedInUser(request).email });
    return reply.code(201).send({ ...invitation, url: null, mail });
  });

  app.delete('/invitations/:invitationId', owner, async (request) => {
    const { invitationId } = parseOrReject(invitationParams, request.params, 'path');
    return members.revokeInvitation(actorOf(request), currentWorkspace(request).id, invitationId);
  });
};
