import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { MemberService } from '../services/accounts/members';
import { parseOrReject } from '../http/validation';
import { jsonBody, requiredText } from '../http/fields';
import type { PublicLinks } from '../http/public-links';
import { workspaceOf } from './workspace-scope';

const memberBody = jsonBody({
  email: requiredText(320).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address, e.g. jo@shop.example'),
  role: z.enum(['owner', 'editor', 'viewer'], { error: 'must be owner, editor or viewer' }).default('owner'),
  name: z.string({ error: 'must be a string' }).trim().max(200, 'must be at most 200 characters').optional(),
  password: z.string({ error: 'must be a string' }).optional(),
});

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
