import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envelopeAnswer, faultAnswer, missingScope, MISSING_TOKEN, UNKNOWN_TOKEN, type FakeAnswer, type LogicalAnswer } from './envelope';
import { replacesAnswer } from './faults';
import { toJson } from './json';
import type { ReceivedRequest } from './received-log';
import { newRequestId } from './request-id';
import type { FakeTikTokTokenGrant } from './seed';
import type { FakeTikTokState } from './state';

/** What a route's logic gets once the shared machinery has let the call through. */
export interface TikTokCallContext {
  requestId: string;
  /** Arrival time on the fake's clock. */
  now: Date;
  /** The body exactly as received; routes parse it themselves so that bad JSON becomes a TikTok error. */
  rawBody: string;
  /** Query parameters; arrays and objects arrive JSON-encoded (§0 "GET array/object params"). */
  query: Readonly<Record<string, string | undefined>>;
  /** The grant of the `Access-Token` the call carried. */
  grant: FakeTikTokTokenGrant;
}

/** The OAuth code exchange is the one call made without a token. */
export interface UnauthenticatedCallContext extends Omit<TikTokCallContext, 'grant'> {
  grant?: undefined;
}

/**
 * One TikTok endpoint of the fake. Every route shares the same machinery: faults first (as a gateway or throttle
 * would act before the API), then the `Access-Token` check and the token's permissions, then the route's logic, all
 * wrapped in the envelope and recorded in the received log.
 */
export type TikTokRouteDefinition =
  | {
      method: 'GET' | 'POST';
      /** Full path with its trailing `/`: TikTok answers 404 without it. */
      path: string;
      auth?: 'token';
      /** Permission IDs of which the token needs one (parents imply children); absent: none checked. */
      scopes?: readonly string[];
      handle(context: TikTokCallContext): LogicalAnswer;
    }
  | { method: 'GET' | 'POST'; path: string; auth: 'none'; handle(context: UnauthenticatedCallContext): LogicalAnswer };

export function registerTikTokRoute(app: FastifyInstance, state: FakeTikTokState, route: TikTokRouteDefinition): void {
  app.route({
    method: route.method,
    url: route.path,
    handler: async (request, reply) => {
      const now = state.clock.now();
      const requestId = newRequestId(now);
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const fault = state.faults.take(route.path, rawBody);
      const faulted = fault !== undefined && replacesAnswer(fault);
      const received = arrival(request, route.path, now, rawBody, faulted);
      state.log.addRequest(received);
      if (fault?.latencyMs) await state.delay(fault.latencyMs);

      const query = queryOf(request);
      const answer = faulted
        ? faultAnswer(fault, requestId)
        : envelopeAnswer(requestId, authenticateThenHandle(state, route, request, { requestId, now, rawBody, query }));
      recordAnswer(received, answer);
      return send(reply, answer);
    },
  });
}

/** Listed on arrival, so that a request held back by latency (and abandoned by its caller) still shows. */
function arrival(request: FastifyRequest, path: string, now: Date, rawBody: string, faulted: boolean): ReceivedRequest {
  return {
    requestId: null,
    receivedAt: now.toISOString(),
    method: request.method,
    path,
    headers: {
      accessToken: header(request, 'access-token'),
      contentType: header(request, 'content-type'),
      userAgent: header(request, 'user-agent'),
    },
    rawBody,
    answer: null,
    faulted,
  };
}

function recordAnswer(received: ReceivedRequest, answer: FakeAnswer): void {
  if (answer.kind === 'raw') {
    received.answer = { httpStatus: answer.httpStatus };
    return;
  }
  const { code, message, request_id: requestId } = answer.envelope;
  received.requestId = requestId;
  received.answer = { httpStatus: answer.httpStatus, code, message };
}

function authenticateThenHandle(
  state: FakeTikTokState,
  route: TikTokRouteDefinition,
  request: FastifyRequest,
  call: Omit<TikTokCallContext, 'grant'>,
): LogicalAnswer {
  if (route.auth === 'none') return route.handle(call);
  const accessToken = header(request, 'access-token');
  if (!accessToken) return MISSING_TOKEN;
  const grant = state.findToken(accessToken);
  if (!grant) return UNKNOWN_TOKEN;
  if (route.scopes && grant.scopes && !route.scopes.some((scope) => grant.scopes?.includes(scope))) return missingScope(route.path);
  return route.handle({ ...call, grant });
}

function queryOf(request: FastifyRequest): Record<string, string | undefined> {
  const query = (request.query ?? {}) as Record<string, string | string[] | undefined>;
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, Array.isArray(value) ? value[value.length - 1] : value]));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function send(reply: FastifyReply, answer: FakeAnswer): FastifyReply {
  if (answer.kind === 'envelope') {
    return reply.code(answer.httpStatus).type('application/json').send(toJson(answer.envelope));
  }
  return reply.code(answer.httpStatus).type(answer.contentType).send(answer.body);
}
