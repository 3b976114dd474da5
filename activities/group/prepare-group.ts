import { setTimeout as sleep } from 'node:timers/promises';
import type { PrepareCandidate, PreparedConversion } from '../../db/repositories/conversion-groups';
import type { PartitionScope, PipelinePartition } from '../../db/repositories/conversion-pipelines';
import type { HistoryEntry } from '../../db/repositories/conversion-history';
import { hasAdvertisingId, readAppContext } from '../../domain/app-context';
import { decideSend, type SendDecision } from '../../domain/attribution';
import { buildConversionRequest, LINKED_HASH_HOPS } from '../../domain/conversion-request';
import { deliveryDeadline } from '../../domain/delivery-retry';
import { matchedOnPerson } from '../../domain/event-source';
import { meaningfulIdentifier } from '../../domain/identifiers';
import type { TrackedMessage } from '../../domain/message';
import type { ConversionReason } from '../../domain/reasons';
import type { ActivityDeps } from '../deps';
import { loadWorkspace } from '../load';
import { workIsolatingCulprits, type GroupWork } from './internal-error';
import { countEnded, noOutcomes, type EndedConversion, type PreparationSummary } from './outcomes';
import { resolveIdentities, type ResolvedIdentity } from './resolve-identities';
import { rounded, stepTimer, type StepTimer } from './step-times';

export interface GroupInput {
  workspaceId: string;
  /** Unique per group and the same when a step runs again: `<run ID>:<group number>`. */
  claimId: string;
  runId: string;
}

export interface PrepareGroupInput extends GroupInput {
  /** Conversions keep coming: let the group fill for up to the batching window. */
  fill: boolean;
  /** The workflow's partition of the workspace's conversions; absent for partition 0, as before partitions existed. */
  partition?: number;
}

/** How a group step runs this time; the workflow's input and history do not carry it. */
export interface GroupStepOptions {
  /** The step has kept failing for this group: find the conversions that make it fail and end them `internal_error`. */
  isolateCulprits: boolean;
}

export interface PreparedGroup {
  claimed: number;
  ready: number;
  skipped: number;
  /** Ended `internal_error`: each made the step fail on its own. */
  failed: number;
  /** Nothing was claimed: the wait before there can be work without a wake-up (a backoff or a lease ending), if any. */
  wakeInMs: number | null;
  /** The workspace has fewer partitions now: nothing was claimed, what the run held is given back, the workflow ends. */
  retired?: true;
  /** Conversions were claimed: for the group's log line, which the delivery step writes. */
  summary?: PreparationSummary;
}

/**
 * Waits until the group is full or its oldest conversion has waited the batching window. With none waiting yet, waits
 * the window for the next ones: the workflow, busy meanwhile, is not woken for each of them (a signal, a claim and a
 * delivery per request when requests come a little slower than a group is sent).
 */
async function fillGroup({ repos, pipeline }: ActivityDeps, scope: PartitionScope): Promise<void> {
  const { count, oldest } = await repos.conversionGroups.waiting(scope, pipeline.maxGroupSize);
  if (count >= pipeline.maxGroupSize) return;
  const wait = oldest === null ? pipeline.batchingWindowMs : oldest.getTime() + pipeline.batchingWindowMs - Date.now();
  if (wait > 0) await sleep(Math.min(wait, pipeline.batchingWindowMs));
}

/**
 * The partition count fell to this partition or below: the run gives back what it still holds, and the partitions
 * that remain are woken to claim it along with anything its last group gave back unsent. Its partition is marked
 * idle, so that a wake-up on a stale count finds the workflow ended or ends it again.
 */
async function retire(deps: ActivityDeps, partition: PipelinePartition, runId: string): Promise<void> {
  await deps.repos.conversionGroups.releaseRun(partition.workspaceId, runId);
  await deps.repos.conversionPipelines.markIdle(partition);
  await deps.pipelines.wakeWorkspaces([partition.workspaceId]);
}

/** Claims the next group of the workflow's partition, or marks it idle when there is none. */
async function claimGroup(deps: ActivityDeps, input: PrepareGroupInput, timer: StepTimer): Promise<Pick<PreparedGroup, 'claimed' | 'wakeInMs' | 'retired'>> {
  const { conversionGroups: groups, conversionPipelines: pipelines } = deps.repos;
  const partition = { workspaceId: input.workspaceId, partition: input.partition ?? 0 };
  const { partitions, idle, resumeAt } = await pipelines.partitionState(partition);
  if (partition.partition >= partitions) {
    await retire(deps, partition, input.runId);
    return { claimed: 0, wakeInMs: null, retired: true };
  }
  const scope: PartitionScope = { ...partition, partitions };
  const backoffLeft = resumeAt ? resumeAt.getTime() - Date.now() : 0;
  if (backoffLeft > 0) return { claimed: 0, wakeInMs: backoffLeft };
  if (input.fill) await timer.time('fill', () => fillGroup(deps, scope));
  const claim = () => timer.time('claim', () => groups.claim({ ...scope, claimId: input.claimId, runId: input.runId, limit: deps.pipeline.maxGroupSize, leaseMs: deps.pipeline.leaseMs }));
  let ids = await claim();
  if (ids.length === 0) {
    const found = await pipelines.declareIdle(scope);
    if (!found.work) return { claimed: 0, wakeInMs: found.leaseEndsAt === null ? null : Math.max(0, found.leaseEndsAt.getTime() - Date.now()) };
    ids = await claim();
  } else if (idle) {
    await pipelines.markBusy(partition);
  }
  return { claimed: ids.length, wakeInMs: null };
}

type Skip = { status: 'skipped'; reason: ConversionReason };

/** Reasons to stop that need no identity: too old to count, rule removed, TikTok not usable. */
function earlySkip(deps: ActivityDeps, candidate: PrepareCandidate, context: EarlyContext): Skip | undefined {
  const skip = (reason: ConversionReason): Skip => ({ status: 'skipped', reason });
  if (deliveryDeadline(deps.pipeline.retry, candidate.eventTime).getTime() < Date.now()) return skip('expired');
  if (!context.ruleEvents.has(candidate.sourceEvent)) return skip('conversion_rule_removed');
  if (context.connection === undefined) return skip('tiktok_not_connected');
  if (context.connection.status === 'reauthorization_required') return skip('tiktok_reauthorization_required');
  return undefined;
}

interface EarlyContext {
  ruleEvents: Set<string>;
  connection: Awaited<ReturnType<ActivityDeps['repos']['tiktokConnections']['summary']>>;
}

/**
 * The attribution window (spec §4.3): no click, or one older than the workspace's window, is not sent, unless the
 * event is an app's with an advertising ID, an offline or CRM event (matched on the person, never on a click) or the
 * workspace matches without a click (domain/attribution.ts).
 */
function checkWindow(candidate: PrepareCandidate, resolved: ResolvedIdentity, workspace: GroupContext['workspace']): SendDecision {
  const advertisingId = candidate.eventSource === 'app' && hasAdvertisingId(readAppContext(candidate.message as unknown as TrackedMessage));
  return decideSend(resolved.attribution, { advertisingId, matchWithoutClick: workspace.matchWithoutClick, matchedOnPerson: matchedOnPerson(candidate.eventSource) });
}

interface GroupContext extends EarlyContext {
  workspace: Awaited<ReturnType<typeof loadWorkspace>>;
}

/** Identity, window and request for these conversions, stored in one transaction: all of them, or none. */
async function preparePart(deps: ActivityDeps, group: GroupWork, context: GroupContext, candidates: readonly PrepareCandidate[], tally: { ready: number; skipped: number }, timer: StepTimer): Promise<void> {
  const { repos } = deps;
  const { workspace, connection } = context;
  const prepared: PreparedConversion[] = [];
  const history: HistoryEntry[] = [];
  const skipped = new Map<string, EndedConversion>();
  const finish = (candidate: PrepareCandidate, base: Omit<PreparedConversion, 'id' | 'status' | 'reason' | 'requestPayload' | 'testMode' | 'matchKeys' | 'sentWithoutClick'>, skip: Skip) => {
    prepared.push({ id: candidate.id, ...base, ...skip, requestPayload: null, testMode: null, matchKeys: null, sentWithoutClick: false });
    history.push({ conversionId: candidate.id, step: 'outcome', detail: { status: skip.status, reason: skip.reason } });
    skipped.set(candidate.id, { ...skip, createdAt: candidate.createdAt });
  };

  const toResolve = candidates.filter((candidate) => {
    const skip = earlySkip(deps, candidate, context);
    if (skip !== undefined) finish(candidate, { click: null, ttp: null, identityPath: null }, skip);
    return skip === undefined;
  });
  const resolved = await timer.time('identity', () => resolveIdentities(repos.profiles, workspace, toResolve));

  timer.timeSync('build', () => toResolve.forEach((candidate, i) => {
    const identity = resolved[i] as ResolvedIdentity;
    const { click, ttp, identityPath, walk, visitors } = identity;
    history.push({
      conversionId: candidate.id,
      step: 'identity_resolved',
      detail: {
        linkedVisitors: identity.linkedVisitors,
        ...(click && { clickSource: click.source, ...(click.anonymousId !== null && { clickAnonymousId: click.anonymousId }), clickCapturedAt: click.capturedAt.toISOString() }),
      },
    });
    const window = checkWindow(candidate, identity, workspace);
    const sentWithoutClick = window.send && window.by === 'match_keys';
    history.push({
      conversionId: candidate.id,
      step: 'window_checked',
      detail: window.send ? { eligible: true, ...(sentWithoutClick && { sentWithoutClick }), ...(window.by === 'person' && { matchedOnPerson: true }) } : { eligible: false, reason: window.reason },
    });
    // A click outside the window stays on a skipped conversion to explain it; one sent without its click carries none.
    const keepClick = !window.send || window.by === 'click';
    const found = keepClick ? { click, ttp, identityPath } : { click: null, ttp, identityPath: null };
    if (!window.send) return finish(candidate, found, { status: 'skipped', reason: window.reason });

    const built = buildConversionRequest({
      message: candidate.message as unknown as TrackedMessage,
      conversion: { ...candidate, click: found.click, ttp },
      workspace,
      connection,
      linked: { emails: walk.values('email_sha256', LINKED_HASH_HOPS), phones: walk.values('phone_sha256', LINKED_HASH_HOPS) },
      // Without its click, only the converting visitor's own profile may lend match keys.
      visitors: keepClick ? visitors : visitors.filter((v) => v.anonymousId === meaningfulIdentifier(candidate.message.anonymousId)),
    });
    if (!built.ready) return finish(candidate, found, { status: 'skipped', reason: built.reason });
    prepared.push({
      id: candidate.id,
      status: 'pending',
      reason: null,
      ...found,
      requestPayload: built.payload as unknown as Record<string, unknown>,
      testMode: workspace.testMode,
      matchKeys: built.matchKeys,
      sentWithoutClick,
    });
    history.push({ conversionId: candidate.id, step: 'payload_built', detail: { testMode: workspace.testMode } });
  }));

  const stored = await timer.time('store', () => deps.db.transaction(async (trx) => {
    const ids = await repos.conversionGroups.storePrepared(group.claimId, prepared, trx);
    await repos.conversionHistory.record(history, trx);
    return ids;
  }));
  countEnded(deps.metrics, group.outcomes, stored.flatMap((id) => skipped.get(id) ?? []));
  const ready = prepared.filter((p) => p.status === 'pending').length;
  tally.ready += ready;
  tally.skipped += prepared.length - ready;
}

/** How soon a workflow whose worker is stopping comes back, on whichever worker takes its next task. */
export const STOPPING_WAKE_MS = 1_000;

/**
 * The worker is stopping: claim nothing, give back what this claim may hold (a step run again after a failure), and
 * come back in a second. The workflow's task then completes with that timer, and its next one goes to another worker.
 */
async function claimNothingWhileStopping(deps: ActivityDeps, input: PrepareGroupInput): Promise<PreparedGroup> {
  await deps.repos.conversionGroups.release(input.claimId);
  return { claimed: 0, ready: 0, skipped: 0, failed: 0, wakeInMs: STOPPING_WAKE_MS };
}

/**
 * Step 1 of a group: claim up to a request's worth of conversions, then for all of them at once resolve identity,
 * check the attribution window, hash and build each one's TikTok event. Conversions that stop here end `skipped`
 * with their reason; the others keep their request for delivery. Runs again safely: what was stored is not redone.
 * Once the worker is stopping it claims nothing.
 */
export async function prepareConversionGroup(deps: ActivityDeps, input: PrepareGroupInput, options: GroupStepOptions = { isolateCulprits: false }): Promise<PreparedGroup> {
  if (deps.stopping?.aborted) return claimNothingWhileStopping(deps, input);
  const timer = stepTimer();
  const { claimed, wakeInMs, retired } = await claimGroup(deps, input, timer);
  if (claimed === 0) return { claimed, ready: 0, skipped: 0, failed: 0, wakeInMs, ...(retired && { retired }) };
  const summary: PreparationSummary = { claimed, claimedAt: Date.now(), outcomes: noOutcomes() };

  const { repos } = deps;
  const load = async () => {
    const candidates = await repos.conversionGroups.toPrepare(input.claimId);
    if (candidates.length === 0) return { candidates };
    const workspace = await loadWorkspace(deps, input.workspaceId);
    const rules = await repos.conversionRules.forEvents(workspace.id, candidates.map((c) => c.sourceEvent));
    const context: GroupContext = { workspace, ruleEvents: new Set(rules.keys()), connection: await repos.tiktokConnections.summary(workspace.id) };
    return { candidates, context };
  };
  const { candidates, context } = await timer.time('load', load);
  if (context === undefined) return { claimed, ready: 0, skipped: 0, failed: 0, wakeInMs: null, summary };

  const group: GroupWork = { claimId: input.claimId, step: 'prepare', isolate: options.isolateCulprits, outcomes: summary.outcomes };
  const tally = { ready: 0, skipped: 0 };
  const failed = await workIsolatingCulprits(deps, group, candidates, (part) => preparePart(deps, group, context, part, tally, timer));
  return { claimed, ...tally, failed, wakeInMs: null, summary: { ...summary, stepsMs: rounded(timer.times) } };
}
