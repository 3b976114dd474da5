import type { Knex } from 'knex';
import type { Click } from '../../domain/attribution';
import { conversionPipelineWorkflowId } from '../../domain/workflow-id';
import { fullMessage } from '../event-message';
import { bindings } from './bindings';
import { CLAIMABLE, IN_PARTITION, type PartitionScope } from './conversion-pipelines';
import type { ConversionStatus, IdentityPathNode, MatchKeySources, TikTokRequestRow } from '../types';
import type { TikTokEventSource } from '../../domain/tiktok-wire';

/** A claim by the workflow of one partition of the workspace's conversions. */
export interface ClaimRequest extends PartitionScope {
  /** Names the group: `<run>:<group number>`. */
  claimId: string;
  runId: string;
  limit: number;
  leaseMs: number;
}

/** A claimed conversion whose request is not built yet, with the message of its event. */
export interface PrepareCandidate {
  id: string;
  sourceEvent: string;
  tiktokEvent: string;
  eventId: string;
  eventTime: Date;
  eventSource: TikTokEventSource;
  value: number | null;
  currency: string | null;
  message: Record<string, unknown>;
  createdAt: Date;
}

/** A conversion's click, where it was found, and the ad it came from. */
export interface ChosenClick extends Click {
  campaignId: string | null;
  adgroupId: string | null;
  adId: string | null;
}

/** What preparation found for one conversion: its request, or why it ends here. */
export interface PreparedConversion {
  id: string;
  status: 'pending' | 'skipped';
  reason: string | null;
  click: ChosenClick | null;
  ttp: string | null;
  identityPath: IdentityPathNode[] | null;
  requestPayload: Record<string, unknown> | null;
  testMode: boolean | null;
  matchKeys: MatchKeySources | null;
  /** Its request carries no click: the workspace matches without one and none was inside the window. */
  sentWithoutClick: boolean;
}

export interface DeliveryCandidate {
  id: string;
  requestPayload: Record<string, unknown>;
  eventTime: Date;
  attempts: number;
  createdAt: Date;
}

export interface TikTokAnswer {
  outcome: 'success' | 'retryable' | 'permanent';
  httpStatus: number | null;
  code: number | null;
  message: string;
  requestId: string | null;
  body: Record<string, unknown> | null;
}

/** Where one conversion stands after an answer: done, or pending (`keepClaim`: sent again within this step). */
export interface AnsweredConversion {
  id: string;
  status: Exclude<ConversionStatus, 'skipped'>;
  reason: string | null;
  keepClaim: boolean;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** The conversions of one group, claimed with a lease, prepared and delivered with set-based statements. */
export function createConversionGroupRepository(db: Knex) {
  return {
    /** How many conversions of the partition wait to be claimed (counting up to `upTo`) and since when the oldest waits. */
    async waiting(scope: PartitionScope, upTo: number, executor: Knex = db): Promise<{ count: number; oldest: Date | null }> {
      const { rows } = await executor.raw<{ rows: { count: number; oldest: Date | null }[] }>(
        `SELECT count(*)::int AS count, min(created_at) AS oldest FROM (
           SELECT c.created_at FROM conversions c WHERE c.workspace_id = ? AND ${CLAIMABLE} AND ${IN_PARTITION} ORDER BY c.created_at LIMIT ?
         ) w`,
        [scope.workspaceId, scope.partitions, scope.partition, upTo],
      );
      return rows[0] as { count: number; oldest: Date | null };
    },

    /**
     * Oldest first, of the partition; conversions still pending under any claim of this run join this one without
     * waiting for its lease. A run works one group at a time and releases or finishes each, so such a claim was made in
     * a workflow task that a crash kept out of history: the run, replayed, claims again under the numbers it has
     * reached, which may be lower than those of groups the lost task had already claimed. Each conversion records the
     * claiming workflow and run. A conversion is taken only while it is still claimable (rows another claim has
     * locked are skipped; rows it took meanwhile are checked again and fail the condition), so two workflows never
     * hold the same conversion, whatever partitions they think they have. Returns the IDs of the group.
     */
    async claim(request: ClaimRequest, executor: Knex = db): Promise<string[]> {
      const { rows } = await executor.raw<{ rows: { id: string }[] }>(
        `WITH picked AS (
           SELECT c.id FROM conversions c
           WHERE c.workspace_id = ? AND ((${CLAIMABLE} AND ${IN_PARTITION}) OR (c.workflow_run_id = ? AND c.status = 'pending'))
           ORDER BY c.created_at LIMIT ? FOR UPDATE SKIP LOCKED
         )
         UPDATE conversions c SET claim_id = ?, claimed_until = now() + ? * interval '1 millisecond', workflow_id = ?, workflow_run_id = ?,
           workflow_started_at = coalesce(c.workflow_started_at, now()), updated_at = now()
         FROM picked WHERE c.id = picked.id
         RETURNING c.id`,
        [
          request.workspaceId,
          request.partitions,
          request.partition,
          request.runId,
          request.limit,
          request.claimId,
          request.leaseMs,
          conversionPipelineWorkflowId(request.workspaceId, request.partition),
          request.runId,
        ],
      );
      return rows.map((row) => row.id);
    },

    /** A run whose partition was retired gives back what it still holds (claims of a workflow task lost to a crash). */
    async releaseRun(workspaceId: string, runId: string, executor: Knex = db): Promise<void> {
      await executor('conversions')
        .where({ workspace_id: workspaceId, workflow_run_id: runId, status: 'pending' })
        .whereNotNull('claim_id')
        .update({ claim_id: null, claimed_until: null, updated_at: executor.fn.now() });
    },

    /** Claimed conversions that have no request yet (new ones, or sent back for a retry by an operator). */
    async toPrepare(claimId: string, executor: Knex = db): Promise<PrepareCandidate[]> {
      const rows = await executor('conversions as c')
        .join('events as e', (on) => on.on('e.id', 'c.event_row_id').andOn('e.received_on', 'c.event_received_on'))
        .where({ 'c.claim_id': claimId, 'c.status': 'pending' })
        .whereNull('c.request_payload')
        .orderBy(['c.created_at', 'c.id'])
        .select('c.id', 'c.source_event', 'c.tiktok_event', 'c.event_id', 'c.event_time', 'c.event_source', 'c.value', 'c.currency', 'c.created_at', 'e.message', 'e.message_id', 'e.type', 'e.event_name', 'e.user_id', 'e.anonymous_id');
      return rows.map((r) => ({
        id: r.id,
        sourceEvent: r.source_event,
        tiktokEvent: r.tiktok_event,
        eventId: r.event_id,
        eventTime: r.event_time,
        eventSource: r.event_source,
        value: r.value,
        currency: r.currency,
        message: fullMessage(r),
        createdAt: r.created_at,
      }));
    },

    /**
     * Stores every conversion's click, path, request and match-key sources, or ends it skipped (releasing it), in one
     * statement. Returns the conversions that were still this claim's.
     */
    async storePrepared(claimId: string, prepared: readonly PreparedConversion[], executor: Knex = db): Promise<string[]> {
      if (prepared.length === 0) return [];
      // One JSON document, not an array per column: its requests are not escaped again as array elements.
      const rows = prepared.map((p) => ({
        id: p.id,
        status: p.status,
        reason: p.reason,
        ttclid: p.click?.ttclid ?? null,
        captured_at: p.click?.capturedAt.toISOString() ?? null,
        anonymous_id: p.click?.anonymousId ?? null,
        campaign_id: p.click?.campaignId ?? null,
        adgroup_id: p.click?.adgroupId ?? null,
        ad_id: p.click?.adId ?? null,
        click_source: p.click?.source ?? null,
        ttp: p.ttp,
        identity_path: p.identityPath,
        request_payload: p.requestPayload,
        match_keys: p.matchKeys,
        test_mode: p.testMode,
        sent_without_click: p.sentWithoutClick,
      }));
      const { rows: stored } = await executor.raw<{ rows: { id: string }[] }>(
        `UPDATE conversions c SET
           status = u.status, reason = u.reason,
           ttclid = u.ttclid, click_captured_at = u.captured_at, click_anonymous_id = u.anonymous_id,
           click_campaign_id = u.campaign_id, click_adgroup_id = u.adgroup_id, click_ad_id = u.ad_id, click_source = u.click_source, ttp = u.ttp,
           identity_path = u.identity_path, request_payload = u.request_payload, match_keys = u.match_keys,
           test_mode = coalesce(u.test_mode, c.test_mode), sent_without_click = u.sent_without_click,
           completed_at = CASE WHEN u.status = 'pending' THEN NULL ELSE now() END,
           claim_id = CASE WHEN u.status = 'pending' THEN c.claim_id END,
           claimed_until = CASE WHEN u.status = 'pending' THEN c.claimed_until END,
           updated_at = now()
         FROM jsonb_to_recordset(?::jsonb) AS u(id uuid, status text, reason text, ttclid text, captured_at timestamptz, anonymous_id text, campaign_id text,
           adgroup_id text, ad_id text, click_source text, ttp text, identity_path jsonb, request_payload jsonb, match_keys jsonb, test_mode boolean, sent_without_click boolean)
         WHERE c.id = u.id AND c.claim_id = ? AND c.status = 'pending'
         RETURNING c.id`,
        [JSON.stringify(rows), claimId],
      );
      return stored.map((row) => row.id);
    },

    /** Claimed conversions with a request, in claim order: a step run again finds only those not answered yet. */
    async toDeliver(claimId: string, executor: Knex = db): Promise<DeliveryCandidate[]> {
      const rows = await executor('conversions')
        .where({ claim_id: claimId, status: 'pending' })
        .whereNotNull('request_payload')
        .orderBy(['created_at', 'id'])
        .select('id', 'request_payload', 'event_time', 'attempts', 'created_at');
      return rows.map((r) => ({ id: r.id, requestPayload: r.request_payload as Record<string, unknown>, eventTime: r.event_time, attempts: r.attempts, createdAt: r.created_at }));
    },

    /** Written before the request leaves: a request without an answer is one whose fate is unknown. */
    async openRequest(
      input: { workspaceId: string; claimId: string; envelope: { event_source: string; event_source_id: string; test_event_code?: string }; conversionIds: readonly string[] },
      executor: Knex = db,
    ): Promise<string> {
      const [row] = await executor('tiktok_requests')
        .insert({
          workspace_id: input.workspaceId,
          claim_id: input.claimId,
          event_source: input.envelope.event_source,
          event_source_id: input.envelope.event_source_id,
          test_event_code: input.envelope.test_event_code ?? null,
          conversion_ids: [...input.conversionIds],
        })
        .returning('id');
      return String(row.id);
    },

    /**
     * TikTok's answer to a request and where each of its conversions now stands, in one transaction's statements:
     * conversions it accepted are `delivered` before the step moves on, so a step run again never sends them.
     * Returns the conversions that were still this claim's (a lease taken over meanwhile drops out).
     */
    async recordAnswer(claimId: string, requestId: string, answer: TikTokAnswer, conversions: readonly AnsweredConversion[], executor: Knex): Promise<string[]> {
      await executor('tiktok_requests').where({ id: requestId }).update({
        answered_at: executor.fn.now(),
        outcome: answer.outcome,
        http_status: answer.httpStatus,
        tiktok_code: answer.code,
        tiktok_message: answer.message,
        tiktok_request_id: answer.requestId,
      });
      const { rows } = await executor.raw<{ rows: { id: string }[] }>(
        `UPDATE conversions c SET
           status = u.status, reason = u.reason, attempts = c.attempts + 1, delivery_request_id = ?,
           tiktok_code = ?, tiktok_message = ?, tiktok_request_id = ?,
           response_body = CASE WHEN u.status = 'delivered' THEN ?::jsonb END,
           completed_at = CASE WHEN u.status = 'pending' THEN NULL ELSE now() END,
           claim_id = CASE WHEN u.keep_claim THEN c.claim_id END,
           claimed_until = CASE WHEN u.keep_claim THEN c.claimed_until END,
           updated_at = now()
         FROM unnest(?::uuid[], ?::text[], ?::text[], ?::boolean[]) AS u(id, status, reason, keep_claim)
         WHERE c.id = u.id AND c.claim_id = ? AND c.status = 'pending'
         RETURNING c.id`,
        bindings(
          requestId,
          answer.code,
          answer.message,
          answer.requestId,
          json(answer.body),
          conversions.map((c) => c.id),
          conversions.map((c) => c.status),
          conversions.map((c) => c.reason),
          conversions.map((c) => c.keepClaim),
          claimId,
        ),
      );
      return rows.map((row) => row.id);
    },

    /** Ends conversions that are not sent (an event TikTok's rules refuse, no connection any more), releasing them. */
    async finishUnsent(claimId: string, finished: readonly { id: string; status: 'skipped' | 'failed'; reason: string; message: string | null }[], executor: Knex = db): Promise<string[]> {
      if (finished.length === 0) return [];
      const { rows } = await executor.raw<{ rows: { id: string }[] }>(
        `UPDATE conversions c SET status = u.status, reason = u.reason, tiktok_message = u.message,
           completed_at = now(), claim_id = NULL, claimed_until = NULL, updated_at = now()
         FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[]) AS u(id, status, reason, message)
         WHERE c.id = u.id AND c.claim_id = ? AND c.status = 'pending'
         RETURNING c.id`,
        bindings(finished.map((f) => f.id), finished.map((f) => f.status), finished.map((f) => f.reason), finished.map((f) => f.message), claimId),
      );
      return rows.map((row) => row.id);
    },

    async findRequest(id: string, executor: Knex = db): Promise<TikTokRequestRow | undefined> {
      return executor('tiktok_requests').where({ id }).first();
    },

    /**
     * Gives the rest of a group back unsent (TikTok is backing off, or the worker is stopping): they are claimed again
     * by the next group of any workflow of their partition. Returns how many.
     */
    async release(claimId: string, executor: Knex = db): Promise<number> {
      return executor('conversions').where({ claim_id: claimId, status: 'pending' }).update({ claim_id: null, claimed_until: null, updated_at: executor.fn.now() });
    },
  };
}

export type ConversionGroupRepository = ReturnType<typeof createConversionGroupRepository>;
