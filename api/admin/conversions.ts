import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { Repositories } from '../../db/repositories';
import type { RequeueSelection } from '../../db/repositories/conversions';
import type { ConversionRetryService } from '../services/conversion-retry';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { conversionPage, decodeCursor } from './conversion-pages';
import { conversionDetail, conversionSummary, type WorkflowLink } from '../http/conversion-view';
import { workspaceOf } from './workspace-scope';

const limitMessage = 'must be a whole number from 1 to 200';
const listQuery = z.strictObject({
  status: z.enum(['pending', 'delivered', 'skipped', 'failed'], { error: 'must be one of pending, delivered, skipped, failed' }).optional(),
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(200, limitMessage).default(50),
  cursor: z.string({ error: 'must be given once' }).optional(),
});
/** How many of the events that repeated a conversion its detail lists (the first ones). */
const REPEATS_SHOWN = 50;
const conversionId = z.guid({ error: 'must be a conversion ID (a UUID)' });
const idParams = z.object({ conversionId });
const instant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time, e.g. 2026-11-23T00:00:00Z' });

/** Either IDs or a filter; a filter without status means `failed`. */
const retryBody = z
  .strictObject({
    conversionIds: z.array(conversionId, { error: 'must be an array of conversion IDs' }).min(1, 'must name at least one conversion').max(1000, 'must name at most 1,000 conversions').optional(),
    status: z.enum(['failed', 'skipped'], { error: 'must be failed or skipped: only those can be sent again' }).optional(),
    reason: z.string().min(1, 'must not be empty').optional(),
    tiktokEvent: z.string().min(1, 'must not be empty').optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine((body) => body.conversionIds === undefined || Object.keys(body).length === 1, {
    message: 'cannot be combined with a filter (status, reason, tiktokEvent, from, to): give one or the other',
    path: ['conversionIds'],
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'must give conversionIds or at least one of status, reason, tiktokEvent, from, to' });

function selectionOf(body: z.output<typeof retryBody>): RequeueSelection {
  if (body.conversionIds !== undefined) return { conversionIds: body.conversionIds };
  return {
    status: body.status ?? 'failed',
    reason: body.reason,
    tiktokEvent: body.tiktokEvent,
    createdFrom: body.from === undefined ? undefined : new Date(body.from),
    createdTo: body.to === undefined ? undefined : new Date(body.to),
  };
}

export interface ConversionRoutesOptions {
  repos: Pick<Repositories, 'conversions' | 'conversionGroups' | 'conversionHistory' | 'eventListing'>;
  conversionRetry: ConversionRetryService;
  workflowLink?: WorkflowLink;
}

/** `/admin/workspaces/:workspaceId/conversions`: status and reason of every conversion, newest first; sending failed ones again. */
export const conversionRoutes: FastifyPluginAsync<ConversionRoutesOptions> = async (app, { repos, conversionRetry, workflowLink }) => {
  app.get('/', async (request) => {
    const { status, limit, cursor } = parseOrReject(listQuery, request.query, 'query');
    const page = await conversionPage(repos.conversions, workspaceOf(request).id, { status, limit, cursor: cursor === undefined ? undefined : decodeCursor(cursor) });
    return { conversions: page.rows.map(conversionSummary), nextCursor: page.nextCursor };
  });

  app.get('/:conversionId', async (request) => {
    const { conversionId: id } = parseOrReject(idParams, request.params, 'path');
    const row = await repos.conversions.findInWorkspace(workspaceOf(request).id, id);
    if (row === undefined) throw notFound(`conversion ${id} does not exist in this workspace`);
    const deliveryRequest = row.delivery_request_id === null ? undefined : await repos.conversionGroups.findRequest(row.delivery_request_id);
    const related = {
      deliveryRequest,
      history: await repos.conversionHistory.list(row.id),
      repeatedBy: await repos.eventListing.repeating(row.id, REPEATS_SHOWN),
      ofMessage: await repos.conversions.ofMessage(row.workspace_id, row.event_row_id),
    };
    return conversionDetail(row, related, workflowLink);
  });

  /** Sends failed (or skipped) conversions again; delivered and pending ones are left alone. Recorded in the change log. */
  app.post('/retry', async (request) => {
    const body = parseOrReject(retryBody, request.body ?? {}, 'body');
    const result = await conversionRetry.retry(workspaceOf(request).id, selectionOf(body), 'operator');
    return { requeued: result.requeued.length, conversionIds: result.requeued };
  });
};
