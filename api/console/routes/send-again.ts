import type { FastifyPluginAsync } from 'fastify';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Repositories } from '../../../db/repositories';
import type { RequeueFilter } from '../../../db/repositories/conversions';
import type { Workspace } from '../../../db/repositories/workspaces';
import { reasonsThatSkipAgain, SEND_AGAIN_LIMIT } from '../../../domain/send-again';
import { badRequest } from '../../http/http-error';
import { parseOrReject } from '../../http/validation';
import type { ConversionRetryService } from '../../services/conversion-retry';
import { actorOf, currentWorkspace, needs } from '../auth';
import { conversionFilter } from '../conversion-filter';
import { sendAgainQuery } from '../../../contract/console/data-routes';

const statusIssue = 'status must be failed or skipped, or not given: only failed and skipped conversions are sent again';

/** What the page's filter selects to send again: finished ones only, less those that could only be skipped again. */
async function selection(db: Knex, repos: Repositories, workspace: Workspace, query: z.infer<typeof sendAgainQuery>): Promise<{ sendable: RequeueFilter; all: RequeueFilter }> {
  const filter = await conversionFilter(db, repos, workspace, query);
  if (filter.status === 'pending' || filter.status === 'delivered') throw badRequest(statusIssue, [statusIssue]);
  const rules = await repos.conversionRules.list(workspace.id);
  const all: RequeueFilter = { ...filter, status: filter.status };
  const skipAgain = { ...reasonsThatSkipAgain(workspace), ruleEvents: rules.map((rule) => rule.sourceEvent) };
  return { all, sendable: { ...all, skipAgain } };
}

/**
 * "Send again" by the Conversions page's filter: how many it would send (the confirmation names the number), then
 * the send itself, at most `SEND_AGAIN_LIMIT` at once, through the same retry service as the settings API.
 */
export const sendAgainRoutes: FastifyPluginAsync<{ db: Knex; repos: Repositories; conversionRetry: ConversionRetryService }> = async (app, { db, repos, conversionRetry }) => {
  app.get('/conversions/send-again', async (request) => {
    const workspace = currentWorkspace(request);
    const { sendable, all } = await selection(db, repos, workspace, parseOrReject(sendAgainQuery, request.query, 'query'));
    const [count, matching] = await Promise.all([repos.conversions.countFiltered(workspace.id, sendable), repos.conversions.countFiltered(workspace.id, all)]);
    return { count, leftOut: matching - count, limit: SEND_AGAIN_LIMIT };
  });

  app.post('/conversions/send-again', { preHandler: needs('editor') }, async (request) => {
    const workspace = currentWorkspace(request);
    const { sendable } = await selection(db, repos, workspace, parseOrReject(sendAgainQuery, request.query, 'query'));
    const count = await repos.conversions.countFiltered(workspace.id, sendable);
    if (count > SEND_AGAIN_LIMIT) {
      const issue = `the filter selects ${count.toLocaleString('en')} conversions, more than ${SEND_AGAIN_LIMIT.toLocaleString('en')} at once: narrow it (a shorter period, a reason or a TikTok event)`;
      throw badRequest(issue, [issue]);
    }
    const result = await conversionRetry.retry(workspace.id, { ...sendable, limit: SEND_AGAIN_LIMIT }, actorOf(request));
    return { requeued: result.requeued.length };
  });
};
