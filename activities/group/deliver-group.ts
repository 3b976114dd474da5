import { createTrackRequestValidator, PARAMETER_ERROR_CODES, type TikTokCallResult } from '../../adplatform/tiktok';
import { batchTrackRequests, type TrackBatch, type TrackEnvelope } from '../../adplatform/tiktok/track-batches';
import type { TikTokTrackRequest } from '../../domain/tiktok-wire';
import type { AnsweredConversion, DeliveryCandidate, TikTokAnswer } from '../../db/repositories/conversion-groups';
import type { HistoryEntry } from '../../db/repositories/conversion-history';
import type { TikTokConnection } from '../../db/repositories/tiktok-connections';
import { afterFailure, backoffMs, deliveryDeadline, probes, type BackoffState, type RetryClass } from '../../domain/delivery-retry';
import type { ConversionReason } from '../../domain/reasons';
import type { ActivityDeps, GroupOutcome } from '../deps';
import { workIsolatingCulprits, type GroupWork } from './internal-error';
import { addOutcomes, countEnded, noOutcomes, type GroupOutcomes, type PreparationSummary } from './outcomes';
import type { GroupInput, GroupStepOptions } from './prepare-group';
import { rounded, stepTimer, type StepTimer } from './step-times';

export interface DeliverGroupInput extends GroupInput {
  /** What preparation claimed and ended (absent from workflows that started before it was passed on). */
  prepared?: PreparationSummary;
}

export interface DeliveredGroup {
  /** `event/track` requests sent. */
  requests: number;
  delivered: number;
  failed: number;
  /** Left pending for the next attempt: TikTok failed transiently and the workspace backs off. */
  retrying: number;
  /** Given back unsent because the worker is stopping: the next group of the partition claims them. */
  handedBack?: number;
}

const validateEvent = createTrackRequestValidator({ requireHashedPii: true });

function answerOf(result: TikTokCallResult<unknown>): TikTokAnswer {
  return {
    outcome: result.outcome,
    httpStatus: result.httpStatus ?? null,
    code: result.code ?? null,
    message: result.message,
    requestId: result.requestId ?? null,
    body: result.outcome === 'success' ? (result.body as unknown as Record<string, unknown>) : null,
  };
}

interface Sending {
  deps: ActivityDeps;
  input: GroupInput;
  connection: TikTokConnection;
  /** Attempts so far per conversion, counting the requests of this step. */
  attempts: Map<string, number>;
  tally: DeliveredGroup;
  outcomes: GroupOutcomes;
  /** TikTok failed transiently: the rest of the group waits for the workspace's backoff. */
  backedOff: boolean;
  /** The worker is stopping: the rest of the group was given back. */
  handedBack: boolean;
  timer: StepTimer;
}

type Sent = 'answered' | 'backing-off';

interface Placement {
  placed: AnsweredConversion[];
  /** A parameter error on several events: send each half again. */
  split: boolean;
  /** TikTok refused the token: deliveries stop until the workspace reconnects. */
  tokenInvalid: boolean;
  /** TikTok failed transiently: the workspace's next backoff. */
  backoff?: BackoffState & { retryClass: RetryClass; resumeAt: Date };
}

/** Where each conversion of a request stands after TikTok's answer. */
async function placeAfterAnswer(sending: Sending, items: readonly DeliveryCandidate[], envelope: TrackEnvelope, result: TikTokCallResult<unknown>): Promise<Placement> {
  const { deps, input } = sending;
  const all = (status: AnsweredConversion['status'], reason: ConversionReason | null) => items.map((item) => ({ id: item.id, status, reason, keepClaim: false }));
  const placement = { split: false, tokenInvalid: false };
  if (result.outcome === 'success') return { ...placement, placed: all('delivered', envelope.test_event_code === undefined ? null : 'test_mode') };
  if (result.outcome === 'permanent') {
    if (items.length > 1 && result.code !== undefined && PARAMETER_ERROR_CODES.includes(result.code)) {
      return { ...placement, split: true, placed: items.map((item) => ({ id: item.id, status: 'pending', reason: null, keepClaim: true })) };
    }
    return { ...placement, tokenInvalid: result.tokenInvalid, placed: all('failed', 'tiktok_rejected') };
  }
  const state = await deps.repos.conversionPipelines.find(input.workspaceId);
  const next = afterFailure({ retryClass: state?.retry_class ?? null, classFailures: state?.class_failures ?? 0 }, result.throttled ? 'throttled' : 'transient');
  const resumeAt = new Date(Date.now() + backoffMs(deps.pipeline.retry, next));
  const placed = items.map((item): AnsweredConversion => {
    const expired = deliveryDeadline(deps.pipeline.retry, item.eventTime) < resumeAt;
    return { id: item.id, status: expired ? 'failed' : 'pending', reason: expired ? 'expired' : null, keepClaim: false };
  });
  return { ...placement, placed, backoff: { ...next, resumeAt } };
}

/**
 * One `event/track` request for these conversions, its answer recorded before anything else happens. A parameter
 * error on several events splits the request in two, recursively, so that only the events at fault fail, each with
 * TikTok's code.
 */
async function send(sending: Sending, items: readonly DeliveryCandidate[], envelope: TrackEnvelope): Promise<Sent> {
  const { deps, input, connection, attempts, tally, timer } = sending;
  const createdAt = new Map(items.map((item) => [item.id, item.createdAt]));
  const { conversionGroups: groups, conversionHistory: history } = deps.repos;
  const body: TikTokTrackRequest = { ...envelope, data: items.map((item) => (item.requestPayload as unknown as TikTokTrackRequest).data[0] as TikTokTrackRequest['data'][number]) };
  const deliveryRequestId = await timer.time('open', () => groups.openRequest({ workspaceId: input.workspaceId, claimId: input.claimId, envelope, conversionIds: items.map((i) => i.id) }));
  const result = await timer.time('tiktok', () => deps.tiktok.trackEvents(connection.accessToken, body));
  tally.requests += 1;
  await deps.reached?.('tiktok-answered');

  const answer = answerOf(result);
  const { placed, split, tokenInvalid, backoff } = await placeAfterAnswer(sending, items, envelope, result);
  const entries: HistoryEntry[] = placed.flatMap((p) => {
    const attempt = (attempts.get(p.id) ?? 0) + 1;
    attempts.set(p.id, attempt);
    const tried: HistoryEntry = {
      conversionId: p.id,
      step: 'delivery_attempt',
      detail: { attempt, deliveryRequestId, requestId: answer.requestId, code: answer.code, message: answer.message, httpStatus: answer.httpStatus, eventsInRequest: items.length },
    };
    return p.status === 'pending' ? [tried] : [tried, { conversionId: p.id, step: 'outcome', detail: { status: p.status, reason: p.reason } }];
  });
  const recorded = await timer.time('record', () => deps.db.transaction(async (trx) => {
    const ids = await groups.recordAnswer(input.claimId, deliveryRequestId, answer, placed, trx);
    await history.record(entries, trx);
    // Any answer but a retryable failure means TikTok is answering again: an outage or throttling is over.
    if (result.outcome !== 'retryable') await deps.repos.conversionPipelines.clearBackoff(input.workspaceId, trx);
    if (backoff !== undefined) await deps.repos.conversionPipelines.backOff(input.workspaceId, backoff, trx);
    if (tokenInvalid) await deps.repos.tiktokConnections.markReauthorizationRequired(input.workspaceId, trx);
    return new Set(ids);
  }));
  await deps.reached?.('answer-recorded');
  const stillThisGroups = placed.filter((p) => recorded.has(p.id));
  countEnded(deps.metrics, sending.outcomes, stillThisGroups.flatMap((p) => (p.status === 'pending' ? [] : [{ status: p.status, reason: p.reason, createdAt: createdAt.get(p.id) as Date }])));
  if (backoff !== undefined) deps.metrics.conversionsRetrying(backoff.retryClass, stillThisGroups.filter((p) => p.status === 'pending').length);

  for (const p of placed) {
    if (p.status === 'delivered') tally.delivered += 1;
    else if (p.status === 'failed') tally.failed += 1;
    else if (!p.keepClaim) tally.retrying += 1;
  }
  if (backoff !== undefined) return 'backing-off';
  if (!split) return 'answered';
  const half = Math.ceil(items.length / 2);
  if ((await send(sending, items.slice(0, half), envelope)) === 'backing-off') return 'backing-off';
  return send(sending, items.slice(half), envelope);
}

interface Unsent {
  id: string;
  status: 'skipped' | 'failed';
  reason: ConversionReason;
  message: string | null;
  createdAt: Date;
}

/** Conversions that are not sent: the connection is gone or needs re-authorization, or an event breaks TikTok's rules. */
async function finishUnsent(deps: ActivityDeps, input: GroupInput, outcomes: GroupOutcomes, finished: readonly Unsent[]): Promise<void> {
  if (finished.length === 0) return;
  const ended = await deps.db.transaction(async (trx) => {
    const ids = new Set(await deps.repos.conversionGroups.finishUnsent(input.claimId, finished, trx));
    const endedHere = finished.filter((f) => ids.has(f.id));
    await deps.repos.conversionHistory.record(
      endedHere.map((f) => ({ conversionId: f.id, step: 'outcome', detail: { status: f.status, reason: f.reason, ...(f.message && { message: f.message }) } })),
      trx,
    );
    return endedHere;
  });
  countEnded(deps.metrics, outcomes, ended);
}

/**
 * The group's `event/track` requests, in order. While TikTok is failing transiently the first is a probe, the oldest
 * conversion alone: the rest are sent only once TikTok has answered it, and then at once.
 */
async function requestsFor(deps: ActivityDeps, workspaceId: string, valid: readonly DeliveryCandidate[]): Promise<TrackBatch<DeliveryCandidate>[]> {
  const singles = valid.map((item) => ({ item, request: item.requestPayload as unknown as TikTokTrackRequest }));
  const state = await deps.repos.conversionPipelines.find(workspaceId);
  if (!probes({ retryClass: state?.retry_class ?? null, classFailures: state?.class_failures ?? 0 })) return batchTrackRequests(singles);
  return [...batchTrackRequests(singles.slice(0, 1)), ...batchTrackRequests(singles.slice(1))];
}

/**
 * These conversions, checked against TikTok's rules, in as few requests as allowed, until TikTok asks to back off or
 * the worker is told to stop (then the rest is given back unsent).
 */
async function deliverPart(sending: Sending, candidates: readonly DeliveryCandidate[]): Promise<void> {
  const { deps, input, tally, timer } = sending;
  const unsendable: Unsent[] = [];
  const now = Date.now();
  const valid = timer.timeSync('check', () => candidates.filter(({ id, createdAt, eventTime, requestPayload }) => {
    // Waited through an outage (unsent behind a probe) until it could no longer count.
    if (deliveryDeadline(deps.pipeline.retry, eventTime).getTime() < now) {
      unsendable.push({ id, createdAt, status: 'failed', reason: 'expired', message: "TikTok was failing until after the conversion's event-time horizon" });
      return false;
    }
    const validation = validateEvent(requestPayload);
    if (!validation.ok) unsendable.push({ id, createdAt, status: 'failed', reason: 'event_invalid', message: validation.message });
    return validation.ok;
  }));
  await finishUnsent(deps, input, sending.outcomes, unsendable);
  tally.failed += unsendable.length;

  for (const candidate of valid) sending.attempts.set(candidate.id, candidate.attempts);
  for (const batch of await requestsFor(deps, input.workspaceId, valid)) {
    if (deps.stopping?.aborted) {
      tally.handedBack = await deps.repos.conversionGroups.release(input.claimId);
      sending.handedBack = true;
      return;
    }
    if ((await send(sending, batch.items, batch.envelope)) === 'backing-off') {
      await deps.repos.conversionGroups.release(input.claimId);
      sending.backedOff = true;
      return;
    }
  }
}

/** The group's conversions to TikTok; returns how the step ended. */
async function deliverClaimed(deps: ActivityDeps, input: GroupInput, options: GroupStepOptions, tally: DeliveredGroup, outcomes: GroupOutcomes, timer: StepTimer): Promise<GroupOutcome> {
  const { conversionGroups: groups } = deps.repos;
  // Stopping before a request was sent (or before this step runs again after failing): the whole group goes back.
  if (deps.stopping?.aborted) {
    tally.handedBack = await groups.release(input.claimId);
    return 'handed_back';
  }
  const { candidates, connection } = await timer.time('reload', async () => {
    const toSend = await groups.toDeliver(input.claimId);
    return { candidates: toSend, connection: toSend.length === 0 ? undefined : await deps.repos.tiktokConnections.withToken(input.workspaceId) };
  });
  if (candidates.length === 0) return 'nothing_to_send';

  if (connection === undefined || connection.status === 'reauthorization_required') {
    const reason = connection === undefined ? 'tiktok_not_connected' : 'tiktok_reauthorization_required';
    await finishUnsent(deps, input, outcomes, candidates.map(({ id, createdAt }) => ({ id, createdAt, status: 'skipped', reason, message: null })));
    return 'not_connected';
  }

  const sending: Sending = { deps, input, connection, attempts: new Map(), tally, outcomes, backedOff: false, handedBack: false, timer };
  // A part sent again after a failure skips what was answered meanwhile, and finds nothing once a backoff released the group.
  const stillPending = async (part: readonly DeliveryCandidate[]) => {
    const ids = new Set(part.map((c) => c.id));
    return (await groups.toDeliver(input.claimId)).filter((c) => ids.has(c.id));
  };
  const group: GroupWork = { claimId: input.claimId, step: 'deliver', isolate: options.isolateCulprits, outcomes };
  tally.failed += await workIsolatingCulprits(deps, group, candidates, async (part) => deliverPart(sending, options.isolateCulprits ? await stillPending(part) : part));
  if (sending.backedOff) return 'backing_off';
  if (sending.handedBack) return 'handed_back';
  return tally.requests > 0 ? 'sent' : 'nothing_to_send';
}

/**
 * Step 2 of a group: the prepared conversions go to TikTok in as few requests as it allows (per event source and
 * pixel or app, at most 1,000 events; test events one per request). Each event is checked against TikTok's rules
 * first. Each answer is recorded, with every conversion's outcome, before the next request: a step run again after a
 * crash finds the accepted conversions `delivered` and never sends them again. A transient failure stops the group:
 * its conversions wait for the workspace's backoff (the next attempt is a probe), or end `expired` if they could no
 * longer count by then. A worker told to stop sends no further request: the rest of the group is given back for the
 * next worker. The group ends with one log line: how its conversions ended, in preparation and here.
 */
export async function deliverConversionGroup(deps: ActivityDeps, input: DeliverGroupInput, options: GroupStepOptions = { isolateCulprits: false }): Promise<DeliveredGroup> {
  const started = Date.now();
  const tally: DeliveredGroup = { requests: 0, delivered: 0, failed: 0, retrying: 0 };
  const outcomes = noOutcomes();
  const timer = stepTimer({ ...input.prepared?.stepsMs });
  const outcome = await deliverClaimed(deps, input, options, tally, outcomes, timer);
  deps.metrics.groupProcessed(outcome);
  const { prepared } = input;
  deps.log.info(
    {
      workspaceId: input.workspaceId,
      claimId: input.claimId,
      outcome,
      size: prepared?.claimed,
      ...(prepared ? addOutcomes(prepared.outcomes, outcomes) : outcomes),
      retrying: tally.retrying,
      ...(tally.handedBack !== undefined && { handedBack: tally.handedBack }),
      requests: tally.requests,
      durationMs: Date.now() - (prepared?.claimedAt ?? started),
      stepsMs: rounded(timer.times),
    },
    'conversion group processed',
  );
  return tally;
}
