export { conversionPipelineWorkflow } from './conversion-pipeline';
export { outboxSweeperWorkflow } from './outbox-sweeper';
export { adStatsPullWorkflow } from './ad-stats-pull';
export { consoleRollupWorkflow } from './console-rollup';
export { retentionWorkflow } from './retention';
export { alertsWorkflow, testAlertWorkflow } from './alerts';
export { sendPastEventsWorkflow } from './past-events';
