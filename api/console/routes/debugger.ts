import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import type { EventRow } from '../../../db/types';
import type { SignInService } from '../../services/accounts/sign-in';
import { parseOrReject } from '../../http/validation';
import { currentWorkspace } from '../auth';
import { eventOutcome } from '../event-outcome';
import { refusalWords } from '../refusal-words';
import { webhookSourceIdOf } from '../../http/webhook-sources';
import { sessionToken } from '../session-cookie';
import { debuggerQuery } from '../../../contract/console/workspace-routes';

const BACKLOG = 20;
const PAGE = 200;
const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;
const SESSION_CHECK_MS = 60_000;


interface Cursor {
  afterEventId?: string;
  afterRefusalId?: string;
}

const eventView = (e: EventRow) => ({ id: String(e.id), type: e.type, eventName: e.event_name, receivedAt: e.received_at, userId: e.user_id, anonymousId: e.anonymous_id, message: e.message });

/** `id:` of a server-sent event, so a reconnecting EventSource resumes where it stopped (`Last-Event-ID`). */
const cursorText = (cursor: Cursor) => `${cursor.afterEventId ?? ''}:${cursor.afterRefusalId ?? ''}`;
function cursorFromText(text: string | undefined): Cursor {
  const [afterEventId, afterRefusalId] = (text ?? '').split(':');
  const valid = (value: string | undefined) => (value !== undefined && /^\d{1,19}$/.test(value) ? value : undefined);
  return { afterEventId: valid(afterEventId), afterRefusalId: valid(afterRefusalId) };
}

/**
 * Event debugger (spec §7.6): the events the workspace receives, each with what became of it (its conversions, the
 * earlier message it repeated, or why it is none), and the requests ingest refused for it (wrong key, workspace
 * mismatch, invalid field), read from PostgreSQL by ID so every replica sees every request. `GET /debugger`
 * answers once (JSON); `GET /debugger/stream` is the same as server-sent events, polled every second.
 */
export const debuggerRoutes: FastifyPluginAsync<{ repos: Repositories; signIn: SignInService }> = async (app, { repos, signIn }) => {
  async function next(workspaceId: string, cursor: Cursor) {
    const [events, refusals] = await Promise.all([
      cursor.afterEventId === undefined ? repos.eventStream.latest(workspaceId, BACKLOG) : repos.eventStream.after(workspaceId, cursor.afterEventId, PAGE),
      repos.ingestRefusals.list(workspaceId, cursor.afterRefusalId === undefined ? { limit: BACKLOG } : { afterId: cursor.afterRefusalId, limit: PAGE }),
    ]);
    const newestEvent = events.at(-1)?.id ?? cursor.afterEventId ?? (await repos.eventStream.newestId());
    const newestRefusal = refusals.at(-1)?.id ?? cursor.afterRefusalId ?? '0';
    const outcomes = new Map((await repos.eventStream.outcomes(workspaceId, events.map((e) => String(e.id)))).map((facts) => [facts.eventId, facts]));
    const views = events.map(eventView).map((view) => ({ ...view, outcome: eventOutcome(view, outcomes.get(view.id)) }));
    const sources = refusals.some((refusal) => webhookSourceIdOf(refusal.path) !== undefined) ? new Map((await repos.webhookSources.list(workspaceId)).map((source) => [source.id, source])) : new Map();
    const named = refusals.map((refusal) => {
      const source = sources.get(webhookSourceIdOf(refusal.path) ?? '');
      return { ...refusal, source: source === undefined ? null : { name: source.name, type: source.type } };
    });
    return { events: views, refusals: named.map((refusal) => ({ ...refusal, words: refusalWords(refusal) })), cursor: { afterEventId: String(newestEvent), afterRefusalId: newestRefusal } };
  }

  app.get('/debugger', async (request) => next(currentWorkspace(request).id, parseOrReject(debuggerQuery, request.query, 'query')));

  app.get('/debugger/stream', async (request: FastifyRequest, reply) => {
    const workspaceId = currentWorkspace(request).id;
    const token = sessionToken(request) as string;
    let cursor = cursorFromText(request.headers['last-event-id'] as string | undefined);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    out.write('retry: 3000\n\n');
    let open = true;
    request.raw.on('close', () => {
      open = false;
    });
    let lastWrite = Date.now();
    let lastSessionCheck = Date.now();
    while (open) {
      try {
        if (Date.now() - lastSessionCheck > SESSION_CHECK_MS) {
          lastSessionCheck = Date.now();
          if ((await signIn.resume(token)) === undefined) {
            out.write('event: session_expired\ndata: {}\n\n');
            break;
          }
        }
        const batch = await next(workspaceId, cursor);
        cursor = batch.cursor;
        if (batch.events.length > 0 || batch.refusals.length > 0) {
          out.write(`id: ${cursorText(cursor)}\nevent: batch\ndata: ${JSON.stringify({ events: batch.events, refusals: batch.refusals })}\n\n`);
          lastWrite = Date.now();
        } else if (Date.now() - lastWrite > HEARTBEAT_MS) {
          out.write(': keep-alive\n\n');
          lastWrite = Date.now();
        }
      } catch (error) {
        request.log.warn({ err: error }, 'event debugger poll failed');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    out.end();
  });
};
