import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS } from '../ingest/accounts/sign-in';

export const SESSION_COOKIE = 'sbx_session';
/** The cookie is sent to the console's API only. */
const COOKIE_PATH = '/console';

/** httpOnly, SameSite=Lax, Secure whenever the request came over HTTPS (directly or through a trusted proxy). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
}

export function sessionToken(request: FastifyRequest): string | undefined {
  const token = request.cookies[SESSION_COOKIE];
  return token === undefined || token === '' ? undefined : token;
}
