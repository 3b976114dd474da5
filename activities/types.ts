/** Shapes that cross the workflow boundary (stored in history, shown in the UI): IDs, codes and times, never PII. */
import type { createActivities } from './index';

export type { WakeReport } from './deps';
export type { BeforeDaysOutcome, EventDaysReport, RetentionOptions, RetentionReport, RetentionSummary } from './retention';
export type { PastEventBatchInput, PastEventBatchReport } from './past-events';
export type { SweepOptions } from './sweep';
export type { ConsoleRollupReport } from './console-rollup';
export type { AlertsReport, TestAlertInput, TestAlertOutcome } from './alerts';

export type Activities = ReturnType<typeof createActivities>;

export { AD_STATS_FAILURE, type AdStatsPlan, type AdStatsRangeInput, type AdStatsRangeResult } from './ad-stats-types';
export type { GroupInput, PrepareGroupInput, PreparedGroup } from './group/prepare-group';
export type { DeliveredGroup, DeliverGroupInput } from './group/deliver-group';
