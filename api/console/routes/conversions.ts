import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { Repositories } from '../../../db/repositories';
import type { ConversionRow, IdentityKind, IdentityPathNode } from '../../../db/types';
import type { Workspace } from '../../../db/repositories/workspaces';
import { sendAgainRefusal } from '../../../domain/send-again';
import type { SourceNote } from '../../../domain/webhooks/webhook-message';
import { DUPLICATE_EVENT_ID_HELP, REASON_HELP, reasonHelp, SENT_WITHOUT_CLICK_HELP } from '../../../domain/reason-help';
import { badRequest, HttpError, notFound } from '../../http/http-error';
import type { ConversionRetryService } from '../../services/conversion-retry';
import { conversionDetail, conversionSummary } from '../../http/conversion-view';
import { parseOrReject } from '../../http/validation';
import { actorNames } from '../actor-names';
import { actorOf, currentWorkspace, needs } from '../auth';
import { conversionTimeline } from '../conversion-timeline';
import { linkBetween, pathTo } from '../identity-path';
import { conversionFilter, searchOf } from '../conversion-filter';
import type { Knex } from 'knex';
import { conversionExportQuery, conversionListQuery, conversionParams } from '../../../contract/console/data-routes';
import { conversionsCsv } from '../conversions-csv';

const REPEATS_SHOWN = 20;

/** Its order's number as the shop shows it, and whether the click came with a Shopify order from the page its visit landed on (its stored event says). */
function orderFacts(row: ConversionRow & { message: Record<string, unknown> | null }) {
  const source = (row.message?.context as { source?: SourceNote } | undefined)?.source;
  return { orderName: row.order_name, clickFromLandingPage: row.click_source === 'message' && source?.click === 'landing_page' };
}

function encodeCursor(row: ConversionRow): string {
  return Buffer.from(JSON.stringify([row.event_time.toISOString(), row.id])).toString('base64url');
}

function decodeCursor(text: string): { eventTime: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return { eventTime: new Date(at), id };
  } catch {
    // the 400 below
  }
  throw badRequest('cursor must be a nextCursor value returned by this endpoint', ['cursor must be a nextCursor value returned by this endpoint']);
}

/** Conversions: the filterable, searchable table, and each conversion's whole story. */
export const conversionRoutes: FastifyPluginAsync<{ db: Knex; repos: Repositories; conversionRetry: ConversionRetryService }> = async (app, { db, repos, conversionRetry }) => {
  app.get('/conversions', async (request) => {
    const query = parseOrReject(conversionListQuery, request.query, 'query');
    const workspace = currentWorkspace(request);
    const filter = await conversionFilter(db, repos, workspace, query);
    const rows = await repos.conversionSearch.search(workspace.id, {
      ...searchOf(filter),
      limit: query.limit + 1,
      before: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      conversions: page.map((row) => ({ ...conversionSummary(row), tiktokCode: row.tiktok_code, clickAnonymousId: row.click_anonymous_id, orderName: row.order_name })),
      nextCursor: rows.length > query.limit && last !== undefined ? encodeCursor(last) : null,
    };
  });

  /** The table of the same filter as a CSV file, written as it is read. */
  app.get('/conversions.csv', async (request, reply) => {
    const query = parseOrReject(conversionExportQuery, request.query, 'query');
    const workspace = currentWorkspace(request);
    const filter = await conversionFilter(db, repos, workspace, query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="signalbox-conversions-${workspace.id}.csv"`)
      .send(Readable.from(conversionsCsv(repos, workspace.id, filter, query.timeZone)));
  });

  /** Every reason a conversion can carry, in a few words and explained: the filter's choices and their labels. */
  app.get('/reasons', async () => ({ reasons: Object.entries(REASON_HELP).map(([reason, help]) => ({ reason, ...help })) }));

  app.get('/conversions/:conversionId', async (request) => {
    const { conversionId } = parseOrReject(conversionParams, request.params, 'path');
    const workspace = currentWorkspace(request);
    const workspaceId = workspace.id;
    const row = await repos.conversionSearch.detail(workspaceId, conversionId);
    if (row === undefined) throw notFound(`conversion ${conversionId} does not exist in this workspace`);
    const [history, repeatedBy, deliveryRequest, ofMessage] = await Promise.all([
      repos.conversionHistory.list(row.id),
      repos.eventListing.repeating(row.id, REPEATS_SHOWN),
      row.delivery_request_id === null ? undefined : repos.conversionGroups.findRequest(row.delivery_request_id),
      repos.conversions.ofMessage(workspaceId, row.event_row_id),
    ]);
    const identityPath = row.identity_path ?? (await derivedIdentityPath(repos, workspaceId, row));
    const nameOf = await actorNames(repos.users, history.flatMap((h) => (h.step === 'retry_requested' ? [String(h.detail.by)] : [])));
    // Without the Temporal UI link: it is the operator's (the settings API's), never a shop owner's.
    const { workflowUrl: _operatorsOnly, ...detail } = conversionDetail(row, { deliveryRequest, history, repeatedBy, ofMessage });
    return {
      ...detail,
      tiktokCode: row.tiktok_code,
      receivedAt: row.received_at,
      userId: row.user_id,
      anonymousId: row.anonymous_id,
      warnings: row.warnings,
      matchKeys: row.match_keys,
      identityPath: identityPath?.map((node, index) => ({ ...node, linkFromPrevious: index === 0 ? null : linkBetween(identityPath[index - 1] as IdentityPathNode, node) })) ?? null,
      identityPathRecorded: row.identity_path !== null,
      timeline: conversionTimeline(row, history, nameOf),
      help: reasonHelp(row.reason),
      withoutClickHelp: row.sent_without_click ? SENT_WITHOUT_CLICK_HELP : null,
      repeatedHelp: repeatedBy.length > 0 ? DUPLICATE_EVENT_ID_HELP : null,
      ...orderFacts(row),
      ...(await sendAgainAnswer(repos, workspace, row)),
    };
  });

  /** "Send again": a failed (or skipped) conversion goes back to the pipeline; its event_id keeps TikTok counting it once. */
  app.post('/conversions/:conversionId/retry', { preHandler: needs('editor') }, async (request) => {
    const { conversionId } = parseOrReject(conversionParams, request.params, 'path');
    const workspace = currentWorkspace(request);
    const workspaceId = workspace.id;
    const row = await repos.conversions.findInWorkspace(workspaceId, conversionId);
    if (row === undefined) throw notFound(`conversion ${conversionId} does not exist in this workspace`);
    const { sendAgainRefusal: refusal } = await sendAgainAnswer(repos, workspace, row);
    if (refusal !== null) throw new HttpError(409, 'cannot_send_again', `conversion ${conversionId} is not sent again: ${refusal}`);
    const result = await conversionRetry.retry(workspaceId, { conversionIds: [conversionId] }, actorOf(request));
    return { requeued: result.requeued.includes(conversionId) };
  });
};

/** Whether "Send again" can change this conversion's outcome, and if not, why (for the page to say). */
async function sendAgainAnswer(repos: Repositories, workspace: Workspace, row: { status: string; reason: string | null; source_event: string }) {
  const rules = await repos.conversionRules.list(workspace.id);
  const refusal = sendAgainRefusal(
    { status: row.status, reason: row.reason, sourceEvent: row.source_event },
    { matchWithoutClick: workspace.matchWithoutClick, ruleEvents: new Set(rules.map((rule) => rule.sourceEvent)) },
  );
  return { canSendAgain: refusal === null, sendAgainRefusal: refusal };
}

/** Before the pipeline records `identity_path`, the walk is rebuilt from today's identity links. */
async function derivedIdentityPath(repos: Repositories, workspaceId: string, row: { click_anonymous_id: string | null; user_id: string | null; anonymous_id: string | null }) {
  if (row.click_anonymous_id === null) return null;
  const target = { kind: 'anonymous_id' as IdentityKind, value: row.click_anonymous_id };
  const seeds: { kind: IdentityKind; value: string }[] = [];
  if (row.anonymous_id !== null) seeds.push({ kind: 'anonymous_id', value: row.anonymous_id });
  if (row.user_id !== null) seeds.push({ kind: 'user_id', value: row.user_id });
  for (const seed of seeds) {
    const path = pathTo(await repos.people.linked(workspaceId, seed), target);
    if (path !== null) return path;
  }
  return null;
}
