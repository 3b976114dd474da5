import { proxyActivities } from '@temporalio/workflow';
import type { Activities, AlertsReport } from '../activities/types';

const { evaluateAlerts } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3 },
});

/** Run by the `signalbox-alerts` schedule every minute: opens and closes incidents and sends their alerts. */
export async function alertsWorkflow(): Promise<AlertsReport> {
  return evaluateAlerts();
}
