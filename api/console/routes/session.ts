import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import type { User } from '../../../db/repositories/users';
import type { MemberService } from '../../services/accounts/members';
import type { ConsoleWorkspaceService } from '../../services/accounts/workspaces';
import type { SignedIn, SignInService } from '../../services/accounts/sign-in';
import { notFound } from '../../http/http-error';
import { parseOrReject } from '../../http/validation';
import { actorOf, requireSession, signedInUser } from '../auth';
import { clearSessionCookie, setSessionCookie } from '../session-cookie';
import { acceptInvitationBody, passwordChangeBody, sessionParams, signInBody, tokenParams } from '../../../contract/console/account-routes';
import { createWorkspaceBody } from '../../../contract/workspaces';

export interface SessionRoutesOptions {
  repos: Repositories;
  signIn: SignInService;
  members: MemberService;
  workspaces: ConsoleWorkspaceService;
}

const clientOf = (request: FastifyRequest) => ({ address: request.ip, userAgent: request.headers['user-agent'] ?? null });

/** Signing in and out, the person's own sessions, and accepting an invitation link. */
export const sessionRoutes: FastifyPluginAsync<SessionRoutesOptions> = async (app, { repos, signIn, members, workspaces }) => {
  async function me(user: User, csrfToken: string, sessionId: string) {
    return { user, csrfToken, sessionId, workspaces: await repos.users.memberships(user.id) };
  }
  async function opened(request: FastifyRequest, reply: Parameters<typeof setSessionCookie>[1], signedIn: SignedIn) {
    setSessionCookie(request, reply, signedIn.token);
    return me(signedIn.user, signedIn.session.csrfToken, signedIn.session.id);
  }

  app.post('/session', async (request, reply) => {
    const { email, password } = parseOrReject(signInBody, request.body, 'body');
    return opened(request, reply, await signIn.signIn(email, password, clientOf(request)));
  });

  app.get('/invitations/:token', async (request) => {
    const { token } = parseOrReject(tokenParams, request.params, 'path');
    const invitation = await members.pendingInvitation(token);
    const workspace = await repos.workspaces.find(invitation.workspaceId);
    if (workspace === undefined) throw notFound('this invitation link is not valid: ask for a new one');
    return { email: invitation.email, role: invitation.role, workspaceName: workspace.name, expiresAt: invitation.expiresAt, password: invitation.password };
  });

  app.post('/invitations/:token/accept', async (request, reply) => {
    const { token } = parseOrReject(tokenParams, request.params, 'path');
    const body = parseOrReject(acceptInvitationBody, request.body, 'body');
    const user = await members.accept(token, body, request.ip);
    return opened(request, reply, await signIn.openSession(user, clientOf(request)));
  });

  await app.register(async (signedIn) => {
    requireSession(signedIn, signIn);

    signedIn.get('/session', async (request) => {
      const session = request.consoleSession as NonNullable<typeof request.consoleSession>;
      return me(signedInUser(request), session.csrfToken, session.id);
    });

    signedIn.delete('/session', async (request, reply) => {
      await repos.consoleSessions.revoke(signedInUser(request).id, (request.consoleSession as NonNullable<typeof request.consoleSession>).id);
      clearSessionCookie(request, reply);
      return { signedOut: true };
    });

    /** Another workspace, owned by the person who makes it. */
    signedIn.post('/workspaces', async (request, reply) => {
      const { name } = parseOrReject(createWorkspaceBody, request.body, 'body');
      return reply.code(201).send({ workspace: await workspaces.create(actorOf(request), signedInUser(request).id, name) });
    });

    signedIn.put('/session/password', async (request) => {
      const passwords = parseOrReject(passwordChangeBody, request.body, 'body');
      const session = request.consoleSession as NonNullable<typeof request.consoleSession>;
      await signIn.changePassword(signedInUser(request), passwords, clientOf(request), session.id);
      return { changed: true };
    });

    signedIn.get('/sessions', async (request) => {
      const current = request.consoleSession?.id;
      const sessions = await repos.consoleSessions.listLive(signedInUser(request).id, new Date());
      return {
        sessions: sessions.map((s) => ({ id: s.id, current: s.id === current, userAgent: s.userAgent, address: s.address, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt })),
      };
    });

    signedIn.delete('/sessions/:sessionId', async (request, reply) => {
      const { sessionId } = parseOrReject(sessionParams, request.params, 'path');
      if (!(await repos.consoleSessions.revoke(signedInUser(request).id, sessionId))) throw notFound(`session ${sessionId} does not exist`);
      if (sessionId === request.consoleSession?.id) clearSessionCookie(request, reply);
      return { revoked: true };
    });
  });
};
