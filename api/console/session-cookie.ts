import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../contract/security';
import { SESSION_ABSOLUTE_MS } from '../services/accounts/sign-in';

/** The cookie is sent to the console (its API and pages) only. */
const COOKIE_PATH = '/console';
/** Tokens are base64url: nothing to escape, and anything else in the cookie is not ours. */
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** httpOnly, SameSite=Lax, Secure whenever the request came over HTTPS (directly or through a trusted proxy). */
function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${secure}`;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header('set-cookie', cookie(request, token, SESSION_ABSOLUTE_MS / 1000));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', cookie(request, '', 0));
}

/** The session token of the request's `Cookie` header, if it carries a well-formed one. */
export function sessionToken(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE && TOKEN.test(value.join('='))) return value.join('=');
  }
  return undefined;
}
