import { Context } from '@temporalio/activity';
import { planAdStatsPull, pullAdEntities, pullAdReport, recordAdStatsPull } from './ad-stats';
import { evaluateAlerts, sendTestAlert, type TestAlertInput } from './alerts';
import { rollUpConsoleFigures } from './console-rollup';
import type { ActivityDeps } from './deps';
import { deliverConversionGroup, type DeliverGroupInput } from './group/deliver-group';
import type { GroupStep } from './group/internal-error';
import { prepareConversionGroup, type PrepareGroupInput } from './group/prepare-group';
import { sendPastEventsBatch, type PastEventBatchInput } from './past-events';
import { recordRetentionRun, removeExpiredEvents, type RetentionOptions, type RetentionSummary } from './retention';
import { startPendingConversions, type SweepOptions } from './sweep';
import type { AdStatsRangeInput } from './ad-stats-types';

/** Every activity the worker registers, bound to its dependencies (the worker is the composition root). */
export function createActivities(deps: ActivityDeps) {
  // A group step still failing at this attempt fails for something in its group: find it (attempts count per step).
  const groupStep = (step: GroupStep) => {
    const { attempt } = Context.current().info;
    if (attempt > 1) deps.metrics.stepRetried(step);
    return { isolateCulprits: attempt >= deps.pipeline.isolateCulpritsFromAttempt };
  };
  return {
    prepareConversionGroup: (input: PrepareGroupInput) => prepareConversionGroup(deps, input, groupStep('prepare')),
    deliverConversionGroup: (input: DeliverGroupInput) => deliverConversionGroup(deps, input, groupStep('deliver')),
    startPendingConversions: (options: SweepOptions) => startPendingConversions(deps, options),
    rollUpConsoleFigures: () => rollUpConsoleFigures(deps),
    evaluateAlerts: () => evaluateAlerts(deps),
    sendTestAlert: (input: TestAlertInput) => sendTestAlert(deps, input),
    removeExpiredEvents: (options: RetentionOptions) => removeExpiredEvents(deps, options),
    recordRetentionRun: async (summary: RetentionSummary) => recordRetentionRun(deps, summary),
    sendPastEventsBatch: (input: PastEventBatchInput) => sendPastEventsBatch(deps, input),
    forgetExpiredDevices: () => deps.repos.profiles.forgetExpiredDevices(),
    planAdStatsPull: (workspaceId: string) => planAdStatsPull(deps, workspaceId),
    pullAdEntities: (input: { workspaceId: string; advertiserId: string }) => pullAdEntities(deps, input),
    pullAdReport: (input: AdStatsRangeInput) => pullAdReport(deps, input),
    recordAdStatsPull: (input: { workspaceId: string; error: string | null }) => recordAdStatsPull(deps, input),
  };
}
