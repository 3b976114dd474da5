import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '../../contract/security';
import { workspaceParams } from '../../contract/workspaces';
import type { ConsoleSession } from '../../db/repositories/console-sessions';
import type { User, UserRepository } from '../../db/repositories/users';
import type { Workspace, WorkspaceRepository } from '../../db/repositories/workspaces';
import type { Role } from '../../db/types';
import type { SignInService } from '../services/accounts/sign-in';
import { forbidden, HttpError, notFound } from '../http/http-error';
import { userActor, type Actor } from '../services/settings';
import { parseOrReject } from '../http/validation';
import { sessionToken } from './session-cookie';

declare module 'fastify' {
  interface FastifyRequest {
    consoleUser: User | null;
    consoleSession: ConsoleSession | null;
    consoleWorkspace: { workspace: Workspace; role: Role } | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A cross-site page may not write on a person's behalf: its Origin, when a browser sends one, must be ours. */
export function refuseForeignOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined || SAFE_METHODS.has(request.method)) return;
  if (origin !== `${request.protocol}://${request.host}`) throw forbidden(`requests from ${origin} may not change anything here`);
}

/** Every route of this scope needs a live session; writes also need the session's CSRF token in `X-CSRF-Token`. */
export function requireSession(app: FastifyInstance, signIn: SignInService): void {
  app.addHook('onRequest', async (request) => {
    const token = sessionToken(request);
    if (token === undefined) throw new HttpError(401, 'session_required', 'sign in first');
    const resumed = await signIn.resume(token);
    if (resumed === undefined) throw new HttpError(401, 'session_expired', 'your session has ended: sign in again');
    request.consoleUser = resumed.user;
    request.consoleSession = resumed.session;
    if (SAFE_METHODS.has(request.method)) return;
    const given = request.headers[CSRF_HEADER];
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), digest(resumed.session.csrfToken))) {
      throw new HttpError(403, 'csrf_token_invalid', `${CSRF_HEADER} header is missing or not this session's token: reload the page`);
    }
  });
}

/** `:workspaceId` routes: a workspace the person is not a member of does not exist for them (404, never 403). */
export function loadWorkspaceMembership(app: FastifyInstance, deps: { users: Pick<UserRepository, 'role'>; workspaces: Pick<WorkspaceRepository, 'find'> }): void {
  app.addHook('onRequest', async (request) => {
    const { workspaceId } = parseOrReject(workspaceParams, request.params, 'path');
    const user = signedInUser(request);
    const role = await deps.users.role(workspaceId, user.id);
    const workspace = role === undefined ? undefined : await deps.workspaces.find(workspaceId);
    if (role === undefined || workspace === undefined) throw notFound(`workspace ${workspaceId} does not exist`);
    request.consoleWorkspace = { workspace, role };
  });
}

export function signedInUser(request: FastifyRequest): User {
  if (request.consoleUser === null) throw new Error('route registered outside the session scope');
  return request.consoleUser;
}

export function actorOf(request: FastifyRequest): Actor {
  return userActor(signedInUser(request).id);
}

export function currentWorkspace(request: FastifyRequest): Workspace {
  if (request.consoleWorkspace === null) throw new Error('route registered outside the workspace scope');
  return request.consoleWorkspace.workspace;
}

/** A route option: `{ preHandler: needs('editor') }`. Viewers read; editors change settings; owners also people and keys. */
export function needs(role: Role) {
  return async (request: FastifyRequest) => {
    const membership = request.consoleWorkspace;
    if (membership === null) throw new Error('route registered outside the workspace scope');
    if (RANK[membership.role] < RANK[role]) {
      throw forbidden(`your role (${membership.role}) cannot do this: it needs ${role === 'owner' ? 'an owner' : 'an editor or owner'}`);
    }
  };
}
