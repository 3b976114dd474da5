import type { ActivityDeps } from '../deps';
import { describeInternalError, isolateCulprits } from './culprits';
import { countEnded, type GroupOutcomes } from './outcomes';

/** The step of a group a conversion broke, as its timeline names it. */
export type GroupStep = 'prepare' | 'deliver';

export interface GroupWork {
  claimId: string;
  step: GroupStep;
  /** The step has kept failing for this group: find the conversions that make it fail. */
  isolate: boolean;
  /** Where the conversions it ends are counted. */
  outcomes: GroupOutcomes;
}

/**
 * Ends a conversion that breaks a group step on its own: `failed` with `internal_error`, the step and the error in its
 * timeline, released from its group. A conversion no longer this group's (a lease taken over) is left as it is.
 */
export async function failWithInternalError(deps: ActivityDeps, group: GroupWork, culprit: { id: string; createdAt: Date }, error: unknown): Promise<void> {
  const message = describeInternalError(error);
  const ended = await deps.db.transaction(async (trx) => {
    const finished = await deps.repos.conversionGroups.finishUnsent(group.claimId, [{ id: culprit.id, status: 'failed', reason: 'internal_error', message: null }], trx);
    if (finished.length === 0) return false;
    await deps.repos.conversionHistory.record([{ conversionId: culprit.id, step: 'outcome', detail: { status: 'failed', reason: 'internal_error', step: group.step, message } }], trx);
    return true;
  });
  if (ended) countEnded(deps.metrics, group.outcomes, [{ status: 'failed', reason: 'internal_error', createdAt: culprit.createdAt }]);
}

/**
 * A step's work on the conversions of its group. Once the step has kept failing for the group (`isolate`: retried a
 * few times already), the conversions that make it fail are found and ended, and the work is done for the others.
 * Returns how many were ended so.
 */
export async function workIsolatingCulprits<T extends { id: string; createdAt: Date }>(
  deps: ActivityDeps,
  group: GroupWork,
  items: readonly T[],
  work: (part: readonly T[]) => Promise<void>,
): Promise<number> {
  if (!group.isolate) {
    await work(items);
    return 0;
  }
  return isolateCulprits(items, work, (culprit, error) => failWithInternalError(deps, group, culprit, error));
}
