import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import type { TikTokConnectionRepository } from '../db/repositories/tiktok-connections';
import type { AdStatsSchedules } from './ad-stats-schedules';

export const OUTBOX_SWEEPER_SCHEDULE_ID = 'signalbox-outbox-sweeper';
export const RETENTION_SCHEDULE_ID = 'signalbox-retention';

export type ScheduleCreation = 'created' | 'exists';

async function ensureSchedule(client: Client, options: ScheduleOptions): Promise<ScheduleCreation> {
  try {
    await client.schedule.create(options);
    return 'created';
  } catch (error) {
    if (error instanceof ScheduleAlreadyRunning) return 'exists';
    throw error;
  }
}

/** The outbox sweeper runs every minute; it shows on the Temporal UI's Schedules page (pause, trigger). */
export function ensureOutboxSweeperSchedule(client: Client, taskQueue: string): Promise<ScheduleCreation> {
  return ensureSchedule(client, {
    scheduleId: OUTBOX_SWEEPER_SCHEDULE_ID,
    spec: { intervals: [{ every: '1 minute' }] },
    action: { type: 'startWorkflow', workflowType: 'outboxSweeperWorkflow', taskQueue, workflowId: 'signalbox-outbox-sweep' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
  });
}

/** Event retention runs every hour, also on the Schedules page. */
export function ensureRetentionSchedule(client: Client, taskQueue: string): Promise<ScheduleCreation> {
  return ensureSchedule(client, {
    scheduleId: RETENTION_SCHEDULE_ID,
    spec: { intervals: [{ every: '1 hour' }] },
    action: { type: 'startWorkflow', workflowType: 'retentionWorkflow', taskQueue, workflowId: 'signalbox-retention' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    state: { note: "Deletes raw events older than each workspace's retention period, or strips them of personal data." },
  });
}

export const CONSOLE_ROLLUP_SCHEDULE_ID = 'signalbox-console-rollup';

/** The console's hourly figures are rolled up every 5 minutes (the pages count what is not rolled up yet live). */
export function ensureConsoleRollupSchedule(client: Client, taskQueue: string): Promise<ScheduleCreation> {
  return ensureSchedule(client, {
    scheduleId: CONSOLE_ROLLUP_SCHEDULE_ID,
    spec: { intervals: [{ every: '5 minutes' }] },
    action: { type: 'startWorkflow', workflowType: 'consoleRollupWorkflow', taskQueue, workflowId: 'signalbox-console-rollup' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '5 minutes' },
  });
}

export const ALERTS_SCHEDULE_ID = 'signalbox-alerts';

/** Alerts are evaluated every minute: an incident is told within about a minute of its start. */
export function ensureAlertsSchedule(client: Client, taskQueue: string): Promise<ScheduleCreation> {
  return ensureSchedule(client, {
    scheduleId: ALERTS_SCHEDULE_ID,
    spec: { intervals: [{ every: '1 minute' }] },
    action: { type: 'startWorkflow', workflowType: 'alertsWorkflow', taskQueue, workflowId: 'signalbox-alerts' },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
    state: { note: 'Opens and closes alert incidents and sends each one once, by mail and webhook.' },
  });
}

/** The schedules every deployment has, created where missing: schedule ID → what was done. */
export async function ensureRecurringSchedules(client: Client, taskQueue: string): Promise<Record<string, ScheduleCreation>> {
  return {
    [OUTBOX_SWEEPER_SCHEDULE_ID]: await ensureOutboxSweeperSchedule(client, taskQueue),
    [RETENTION_SCHEDULE_ID]: await ensureRetentionSchedule(client, taskQueue),
    [CONSOLE_ROLLUP_SCHEDULE_ID]: await ensureConsoleRollupSchedule(client, taskQueue),
    [ALERTS_SCHEDULE_ID]: await ensureAlertsSchedule(client, taskQueue),
  };
}

/**
 * Every connection with an advertiser has a statistics schedule (e.g. after the dev server lost its in-memory state).
 * Existing ones are left as they are, paused ones included; a connection awaiting re-authorization gets a paused one.
 */
export async function reconcileAdStatsSchedules(
  connections: Pick<TikTokConnectionRepository, 'withAdvertiser'>,
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
