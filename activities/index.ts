import { Context } from '@temporalio/activity';
import { planAdStatsPull, pullAdEntities, pullAdReport, recordAdStatsPull } from './ad-stats';
import { checkAttributionWindow } from './attribution-window';
import { rollUpConsoleFigures } from './console-rollup';
import { hashUserData } from './build-payload';
import { deliverToTikTok } from './deliver';
import type { ActivityDeps } from './deps';
import { prepareConversion } from './prepare';
import { recordOutcome } from './record-outcome';
import { resolveIdentity } from './resolve-identity';
import { deliverConversionGroup } from './group/deliver-group';
import { prepareConversionGroup, type GroupInput, type PrepareGroupInput } from './group/prepare-group';
import { removeExpiredEvents, type RetentionOptions } from './retention';
import { startPendingConversions, type SweepOptions } from './sweep';
import type { AdStatsRangeInput, Outcome } from './types';

/** Every activity the worker registers, bound to its dependencies (the worker is the composition root). */
export function createActivities(deps: ActivityDeps) {
  // A group step still failing at this attempt fails for something in its group: find it (attempts count per step).
  const groupStep = () => ({ isolateCulprits: Context.current().info.attempt >= deps.pipeline.isolateCulpritsFromAttempt });
  return {
    prepareConversionGroup: (input: PrepareGroupInput) => prepareConversionGroup(deps, input, groupStep()),
    deliverConversionGroup: (input: GroupInput) => deliverConversionGroup(deps, input, groupStep()),
    // The six steps of the per-conversion workflow, for its runs started before groups.
    prepareConversion: (conversionId: string) => prepareConversion(deps, conversionId),
    resolveIdentity: (conversionId: string) => resolveIdentity(deps, conversionId),
    checkAttributionWindow: (conversionId: string) => checkAttributionWindow(deps, conversionId),
    hashUserData: (conversionId: string) => hashUserData(deps, conversionId),
    deliverToTikTok: (conversionId: string) => deliverToTikTok(deps, conversionId),
    recordOutcome: (conversionId: string, outcome: Outcome) => recordOutcome(deps, conversionId, outcome),
    startPendingConversions: (options: SweepOptions) => startPendingConversions(deps, options),
    rollUpConsoleFigures: () => rollUpConsoleFigures(deps),
    removeExpiredEvents: (options: RetentionOptions) => removeExpiredEvents(deps, options),
    forgetExpiredDevices: () => deps.repos.profiles.forgetExpiredDevices(),
    planAdStatsPull: (workspaceId: string) => planAdStatsPull(deps, workspaceId),
    pullAdEntities: (input: { workspaceId: string; advertiserId: string }) => pullAdEntities(deps, input),
    pullAdReport: (input: AdStatsRangeInput) => pullAdReport(deps, input),
    recordAdStatsPull: (input: { workspaceId: string; error: string | null }) => recordAdStatsPull(deps, input),
  };
}
