import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { TikTokConnectionRepository } from '../db/repositories/tiktok-connections';
import type { AdStatsSchedules } from '../temporal/ad-stats-schedules';

export const OUTBOX_SWEEPER_SCHEDULE_ID = 'signalbox-outbox-sweeper';

/** The outbox sweeper runs every minute; it shows on the Temporal UI's Schedules page (pause, trigger). */
export async function ensureOutboxSweeperSchedule(client: Client, taskQueue: string): Promise<'created' | 'exists'> {
  try {
    await client.schedule.create({
      scheduleId: OUTBOX_SWEEPER_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 minute' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'outboxSweeperWorkflow',
        taskQueue,
        workflowId: 'signalbox-outbox-sweep',
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
    });
    return 'created';
  } catch (error) {
    if (error instanceof ScheduleAlreadyRunning) return 'exists';
    throw error;
  }
}

export const CONSOLE_ROLLUP_SCHEDULE_ID = 'signalbox-console-rollup';

/** The console's hourly figures are rolled up every 5 minutes (the pages count what is not rolled up yet live). */
export async function ensureConsoleRollupSchedule(client: Client, taskQueue: string): Promise<'created' | 'exists'> {
  try {
    await client.schedule.create({
      scheduleId: CONSOLE_ROLLUP_SCHEDULE_ID,
      spec: { intervals: [{ every: '5 minutes' }] },
      action: { type: 'startWorkflow', workflowType: 'consoleRollupWorkflow', taskQueue, workflowId: 'signalbox-console-rollup' },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '5 minutes' },
    });
    return 'created';
  } catch (error) {
    if (error instanceof ScheduleAlreadyRunning) return 'exists';
    throw error;
  }
}

/**
 * Every connection with an advertiser has a statistics schedule (e.g. after the dev server lost its in-memory state).
 * Existing ones are left as they are, paused ones included; a connection awaiting re-authorization gets a paused one.
 */
export async function reconcileAdStatsSchedules(
  connections: TikTokConnectionRepository,
  schedules: Pick<AdStatsSchedules, 'describe' | 'ensure' | 'pause'>,
): Promise<{ created: number; existing: number }> {
  const report = { created: 0, existing: 0 };
  for (const connection of await connections.withAdvertiser()) {
    if ((await schedules.describe(connection.workspaceId)) !== undefined) {
      report.existing += 1;
      continue;
    }
    await schedules.ensure(connection.workspaceId);
    if (connection.status === 'reauthorization_required') {
      await schedules.pause(connection.workspaceId, 'Paused: the TikTok connection needs re-authorization.');
    }
    report.created += 1;
  }
  return report;
}
