import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { Repositories } from '../../db/repositories';
import type { RequeueSelection } from '../../db/repositories/conversions';
import type { ConversionRetryService } from '../services/conversion-retry';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { conversionPage, decodeCursor } from './conversion-pages';
import { conversionDetail, conversionSummary, type WorkflowLink } from '../http/conversion-view';
import { workspaceOf } from './workspace-scope';
import { conversionListQuery, conversionParams, retryBody } from '../../contract/settings-api/conversion-routes';

/** How many of the events that repeated a conversion its detail lists (the first ones). */
const REPEATS_SHOWN = 50;

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
    const { status, source, limit, cursor } = parseOrReject(conversionListQuery, request.query, 'query');
    const page = await conversionPage(repos.conversions, workspaceOf(request).id, { status, source, limit, cursor: cursor === undefined ? undefined : decodeCursor(cursor) });
    return { conversions: page.rows.map(conversionSummary), nextCursor: page.nextCursor };
  });

  app.get('/:conversionId', async (request) => {
    const { conversionId: id } = parseOrReject(conversionParams, request.params, 'path');
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
