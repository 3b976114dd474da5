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

  app.post('/invitations', owner, async (request, reply) => {
    const { email, role } = parseOrReject(inviteBody, request.body, 'body');
    const workspace = currentWorkspace(request);
    const invitation = await members.invite(actorOf(request), workspace.id, email, role);
    const mail = await mailInvitation(invitation, { workspaceName: workspace.name, invitedBy: signedInUser(request).email });
    const { token, ...shown } = invitation;
    return reply.code(201).send({ ...shown, url: links.invitation(token), mail });
  });

  app.delete('/invitations/:invitationId', owner, async (request) => {
    const { invitationId } = parseOrReject(invitationParams, request.params, 'path');
    return members.revokeInvitation(actorOf(request), currentWorkspace(request).id, invitationId);
  });
};
