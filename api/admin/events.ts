import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { EventListingRepository, EventPosition } from '../../db/repositories/event-listing';
import { badRequest } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';

const limitMessage = 'must be a whole number from 1 to 200';
const listQuery = z.strictObject({
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(200, limitMessage).default(50),
  cursor: z.string({ error: 'must be given once' }).optional(),
  event: z.string({ error: 'must be given once' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});

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
    const { limit, cursor, event } = parseOrReject(listQuery, request.query, 'query');
    const page = await eventListing.page(workspaceOf(request).id, { limit, eventName: event, before: cursor === undefined ? undefined : decodeCursor(cursor) });
    return { events: page.events, nextCursor: page.next === undefined ? null : encodeCursor(page.next) };
  });
};
