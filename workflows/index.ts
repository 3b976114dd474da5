export { conversionPipelineWorkflow } from './conversion-pipeline';
// Runs started before conversions were processed in groups finish with it; nothing starts it any more.
export { conversionWorkflow } from './conversion';
export { outboxSweeperWorkflow } from './outbox-sweeper';
export { adStatsPullWorkflow } from './ad-stats-pull';
export { retentionWorkflow } from './retention';
