import { proxyActivities } from '@temporalio/workflow';
import type { Activities, ConsoleRollupReport } from '../activities/types';

const { rollUpConsoleFigures } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3 },
});

/** Run by the `signalbox-console-rollup` schedule: keeps the console's hourly figures up to date. */
export async function consoleRollupWorkflow(): Promise<ConsoleRollupReport> {
  return rollUpConsoleFigures();
}
