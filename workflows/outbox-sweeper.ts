import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities, SweepOptions, WakeReport } from '../activities/types';

const { startPendingConversions, forgetExpiredDevices } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

export const DEFAULT_SWEEP: SweepOptions = { minAgeMs: 15_000, restartAfterMs: 60 * 60_000, limit: 1_000 };

/**
 * Run by a Temporal schedule: wakes the workflows of conversions that stayed unclaimed after ingest (the
 * transactional outbox), then clears visitors' device details older than their workspace's attribution window.
 */
export async function outboxSweeperWorkflow(options: Partial<SweepOptions> = {}): Promise<WakeReport> {
  const report = await startPendingConversions({ ...DEFAULT_SWEEP, ...options });
  // A sweep that began before this step existed replays without it.
  if (patched('forget-expired-devices')) await forgetExpiredDevices();
  return report;
}
