import { errors } from './errors';
import type { Answer, HttpMethod, RouteContract } from './route';

/** The methods whose requests Fastify reads a body of, whether or not the route takes one. */
const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Every status the route can answer: those any route of its kind gives, from what it takes and how it is secured
 * (api/error-handler.ts, the body parser, the credential checks), then the route's own, which say more. The OpenAPI
 * document lists these, so that nothing a route answers is missing from it.
 */
export function answersOf(route: RouteContract): Readonly<Record<number, Answer>> {
  const readsBody = BODY_METHODS.has(route.method);
  const general = errors(500);
  // Invalid parameters, query or body; a body that is not JSON, or a JSON Content-Type with no body.
  if (readsBody || route.params !== undefined || route.query !== undefined) Object.assign(general, errors(400));
  if (readsBody) Object.assign(general, errors(413, 415));
  if (route.security.length > 0) Object.assign(general, errors(401));
  if (route.security.some((set) => set.includes('csrfToken'))) Object.assign(general, errors(403));
  if (route.storage !== false) Object.assign(general, errors(503));
  return { ...general, ...route.answers };
}
