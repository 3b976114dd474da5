import type { FastifyPluginAsync } from 'fastify';
import type { MemberService } from '../services/accounts/members';
import { parseOrReject } from '../http/validation';
import type { PublicLinks } from '../http/public-links';
import { workspaceOf } from './workspace-scope';
import { memberBody } from '../../contract/settings-api/workspace-routes';

/**
 * `/admin/workspaces/:workspaceId/members`: how an operator lets the first person in (`signalbox users create`).
 * With a password the account is created and can sign in at once; without one a new person gets an invitation link.
 */
export const adminMemberRoutes: FastifyPluginAsync<{ members: MemberService; links: PublicLinks }> = async (app, { members, links }) => {
  app.post('/', async (request, reply) => {
    const body = parseOrReject(memberBody, request.body, 'body');
    const added = await members.add('operator', workspaceOf(request).id, body);
    if (added.invitation === undefined) return reply.code(201).send({ user: added.user, role: body.role, invitationUrl: null });
    const { token, ...invitation } = added.invitation;
    return reply.code(201).send({ user: null, role: body.role, invitation, invitationUrl: links.invitation(token) });
  });

  app.get('/', async (request) => ({ members: await members.list(workspaceOf(request).id) }));
};
