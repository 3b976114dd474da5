import type { ActivityDeps } from '../deps';
import { describeInternalError, isolateCulprits } from './culprits';

/** The step of a group a conversion broke, as its timeline names it. */
export type GroupStep = 'prepare' | 'deliver';

/**
 * Ends a conversion that breaks a group step on its own: `failed` with `internal_error`, the step and the error in its
 * timeline, released from its group. A conversion no longer this group's (a lease taken over) is left as it is.
 */
export async function failWithInternalError(deps: ActivityDeps, claimId: string, step: GroupStep, conversionId: string, error: unknown): Promise<void> {
  const message = describeInternalError(error);
  await deps.db.transaction(async (trx) => {
    const ended = await deps.repos.conversionGroups.finishUnsent(claimId, [{ id: conversionId, status: 'failed', reason: 'internal_error', message: null }], trx);
    if (ended.length === 0) return;
    await deps.repos.conversionHistory.record([{ conversionId, step: 'outcome', detail: { status: 'failed', reason: 'internal_error', step, message } }], trx);
  });
}

/**
 * A step's work on the conversions of its group. Once the step has kept failing for the group (`isolate`: retried a
 * few times already), the conversions that make it fail are found and ended, and the work is done for the others.
 * Returns how many were ended so.
 */
export async function workIsolatingCulprits<T extends { id: string }>(
  deps: ActivityDeps,
  group: { claimId: string; step: GroupStep; isolate: boolean },
  items: readonly T[],
  work: (part: readonly T[]) => Promise<void>,
): Promise<number> {
  if (!group.isolate) {
    await work(items);
    return 0;
  }
  return isolateCulprits(items, work, (culprit, error) => failWithInternalError(deps, group.claimId, group.step, culprit.id, error));
}
