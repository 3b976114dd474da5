import type { FastifyPluginAsync } from 'fastify';
import type { EventListingRepository, EventPosition } from '../../db/repositories/event-listing';
import { badRequest } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';
import { eventListQuery } from '../../contract/settings-api/workspace-routes';

function encodeCursor(position: EventPosition): string {
  return Buffer.from(JSON.stringify([position.receivedAt, position.id])).toString('base64url');
}

function decodeCursor(text: string): EventPosition {
  try {
    const [receivedAt, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof receivedAt === 'string' && !Number.isNaN(Date.parse(receivedAt)) && typeof id === 'string' && /^\d{1,19}$/.test(id)) return { receivedAt, id };
  } catch {
    // fall through to the 400 below
  }
  const issue = 'cursor must be a nextCursor value returned by this endpoint';
  throw badRequest(issue, [issue]);
}

/**
 * `/admin/workspaces/:workspaceId/events`: what the workspace received, newest first, without the messages themselves
 * (they may hold personal data). An event that repeated an order_id / event_id names the conversion it repeats.
 */
export const eventRoutes: FastifyPluginAsync<{ eventListing: EventListingRepository }> = async (app, { eventListing }) => {
  app.get('/', async (request) => {
    const { limit, cursor, event } = parseOrReject(eventListQuery, request.query, 'query');
    const page = await eventListing.page(workspaceOf(request).id, { limit, eventName: event, before: cursor === undefined ? undefined : decodeCursor(cursor) });
    return { events: page.events, nextCursor: page.next === undefined ? null : encodeCursor(page.next) };
  });
};
