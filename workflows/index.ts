export { conversionWorkflow } from './conversion';
export { outboxSweeperWorkflow } from './outbox-sweeper';
export { adStatsPullWorkflow } from './ad-stats-pull';
export { retentionWorkflow } from './retention';
