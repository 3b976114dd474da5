import type { FastifyPluginAsync } from 'fastify';
import type { MemberService } from '../services/accounts/members';
import { parseOrReject } from '../http/validation';
import type { PublicLinks } from '../http/public-links';
import { workspaceOf } from './workspace-scope';
import { memberBody } from '../../contract/settings-api/workspace-routes';

/**
 * `/admin/workspaces/:workspaceId/members`: how an operator lets the first person in (`signalbox users create`). The
 * answer says what was done (`account`, `passwordSet`, and `message`, a sentence the CLI prints); an invitation's
 * link is shown to the operator, who is trusted with it.
 */
export const adminMemberRoutes: FastifyPluginAsync<{ members: MemberService; links: PublicLinks }> = async (app, { members, links }) => {
  app.post('/', async (request, reply) => {
    const body = parseOrReject(memberBody, request.body, 'body');
    const { account, passwordSet, message, user, invitation: made } = await members.add('operator', workspaceOf(request).id, body);
    if (made === undefined) return reply.code(201).send({ account, passwordSet, message, user, role: body.role, invitationUrl: null });
    const { token, ...invitation } = made;
    return reply.code(201).send({ account, passwordSet, message, user: null, role: body.role, invitation, invitationUrl: links.invitation(token) });
  });

  app.get('/', async (request) => ({ members: await members.list(workspaceOf(request).id) }));
};
