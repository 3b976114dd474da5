import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { CredentialCache } from './auth/credential-cache';
import { badRequest, forbidden } from '../http/http-error';

/** Chromium caps a cached preflight at two hours. */
const PREFLIGHT_MAX_AGE_SECONDS = 7_200;

/**
 * Lets the page at `origin` read the answer, also to a request sent with cookies (the tracking script's same-site
 * mode, whose answer sets first-party cookies). Set only after the request's browser key was accepted from that
 * origin, so a page on any other origin cannot read anything (a generic CORS plugin cannot know this: the allowed
 * origins belong to the key's workspace, which is known only after authentication).
 */
export function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true').header('vary', 'Origin');
}

/**
 * CORS preflights of the ingest endpoints (`OPTIONS /v1/...`). A preflight carries no key, so it is answered for an
 * origin that any workspace allows; the request that follows is then checked against its own key's workspace.
 */
export const ingestPreflightRoutes: FastifyPluginAsync<{ credentials: CredentialCache }> = async (app, { credentials }) => {
  app.options('/v1/*', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) throw badRequest('a CORS preflight needs an Origin header');
    if (!(await credentials.anyWorkspaceAllowsOrigin(origin))) {
      throw forbidden(`Origin ${origin} is not in the allowedOrigins of any workspace: add it in the workspace settings`);
    }
    const requestedHeaders = request.headers['access-control-request-headers'];
    return reply
      .code(204)
      .headers({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-credentials': 'true',
        // Libraries add their own headers (RudderStack sends AnonymousId); the key decides what is accepted.
        ...(requestedHeaders === undefined ? {} : { 'access-control-allow-headers': requestedHeaders }),
        'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
        vary: 'Origin, Access-Control-Request-Headers',
      })
      .send();
  });
};
