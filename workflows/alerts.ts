import { proxyActivities } from '@temporalio/workflow';
import type { Activities, AlertsReport, TestAlertInput, TestAlertOutcome } from '../activities/types';

const { evaluateAlerts } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3 },
});

/** Run by the `signalbox-alerts` schedule every minute: opens and closes incidents and sends their alerts. */
export async function alertsWorkflow(): Promise<AlertsReport> {
  return evaluateAlerts();
}

/** Sent once: a test alert sent twice would read as two, and the person who asked is waiting for the outcome. */
const { sendTestAlert } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});

/** "Send a test alert" (console and settings API): the workspace's channels, exactly as an incident's alert goes. */
export async function testAlertWorkflow(input: TestAlertInput): Promise<TestAlertOutcome[]> {
  return sendTestAlert(input);
}
