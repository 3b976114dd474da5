import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ConversionRepository } from '../../../db/repositories/conversions';
import type { EventListingRepository } from '../../../db/repositories/event-listing';
import { notFound } from '../../http-error';
import { parseOrReject } from '../../validation';
import { conversionPage, decodeCursor } from './conversion-pages';
import { conversionDetail, conversionSummary } from './conversion-view';
import { workspaceOf } from './workspace-scope';

const limitMessage = 'must be a whole number from 1 to 200';
const listQuery = z.strictObject({
  status: z.enum(['pending', 'delivered', 'skipped', 'failed'], { error: 'must be one of pending, delivered, skipped, failed' }).optional(),
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(200, limitMessage).default(50),
  cursor: z.string({ error: 'must be given once' }).optional(),
});
/** How many of the events that repeated a conversion its detail lists (the first ones). */
const REPEATS_SHOWN = 50;
const idParams = z.object({ conversionId: z.guid({ error: 'must be a conversion ID (a UUID)' }) });

export interface ConversionRoutesOptions {
  conversions: ConversionRepository;
  eventListing: EventListingRepository;
  workflowLink?: (workflowId: string) => string;
}

/** `/admin/workspaces/:workspaceId/conversions`: status and reason of every conversion, newest first. */
export const conversionRoutes: FastifyPluginAsync<ConversionRoutesOptions> = async (app, { conversions, eventListing, workflowLink }) => {
  app.get('/', async (request) => {
    const { status, limit, cursor } = parseOrReject(listQuery, request.query, 'query');
    const page = await conversionPage(conversions, workspaceOf(request).id, { status, limit, cursor: cursor === undefined ? undefined : decodeCursor(cursor) });
    return { conversions: page.rows.map(conversionSummary), nextCursor: page.nextCursor };
  });

  app.get('/:conversionId', async (request) => {
    const { conversionId } = parseOrReject(idParams, request.params, 'path');
    const row = await conversions.findInWorkspace(workspaceOf(request).id, conversionId);
    if (row === undefined) throw notFound(`conversion ${conversionId} does not exist in this workspace`);
    return conversionDetail(row, await eventListing.repeating(row.id, REPEATS_SHOWN), workflowLink);
  });
};
