import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import { adStatsWorkflowId, adStatsScheduleId, type AdStatsPullInput } from '../workflows/ad-stats-ids';
import { WorkspaceIdAttribute } from '../workflows/search-attributes';

export { adStatsScheduleId } from '../workflows/ad-stats-ids';

export interface AdStatsSchedulesOptions {
  taskQueue: string;
  /** How often statistics are pulled, as Temporal reads durations (`'1 hour'`, `'30 minutes'`). Default `'1 hour'`. */
  every?: string;
}

export interface AdStatsScheduleInfo {
  scheduleId: string;
  paused: boolean;
  /** Why it was paused (or the last note), as shown on the Temporal UI's Schedules page. */
  note: string | null;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
}

/**
 * One Temporal schedule per connected workspace that pulls TikTok statistics (visible, pausable and triggerable on
 * the Temporal UI's Schedules page). Used by the settings API (connect, select advertiser, disconnect), by the worker
 * at start (reconcile) and by the pull itself (pause when the token turns out invalid).
 */
export function createAdStatsSchedules(client: Client, options: AdStatsSchedulesOptions) {
  const every = options.every ?? '1 hour';

  function scheduleOptions(workspaceId: string): ScheduleOptions {
    const args: [AdStatsPullInput] = [{ workspaceId }];
    return {
      scheduleId: adStatsScheduleId(workspaceId),
      spec: { intervals: [{ every }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'adStatsPullWorkflow',
        taskQueue: options.taskQueue,
        workflowId: adStatsWorkflowId(workspaceId),
        args,
        typedSearchAttributes: [{ key: WorkspaceIdAttribute, value: workspaceId }],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
      state: { note: 'Pulls TikTok campaign, ad group and ad statistics for this workspace.' },
    };
  }

  return {
    /**
     * Creates the workspace's schedule, or brings an existing one up to date and unpauses it (a reconnect after
     * re-authorization). Never makes a second one.
     */
    async ensure(workspaceId: string): Promise<'created' | 'updated'> {
      const wanted = scheduleOptions(workspaceId);
      try {
        await client.schedule.create(wanted);
        return 'created';
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      }
      const handle = client.schedule.getHandle(wanted.scheduleId);
      await handle.update((previous) => ({ ...previous, spec: wanted.spec, action: wanted.action, policies: { ...previous.policies, ...wanted.policies } }));
      const description = await handle.describe();
      if (description.state.paused) await handle.unpause('TikTok connection is active again.');
      return 'updated';
    },

    /** False when there was none. */
    async remove(workspaceId: string): Promise<boolean> {
      try {
        await client.schedule.getHandle(adStatsScheduleId(workspaceId)).delete();
        return true;
      } catch (error) {
        if (error instanceof ScheduleNotFoundError) return false;
        throw error;
      }
    },

    /** Stops hourly runs with a note saying why; false when there is no schedule. */
    async pause(workspaceId: string, note: string): Promise<boolean> {
      try {
        await client.schedule.getHandle(adStatsScheduleId(workspaceId)).pause(note);
        return true;
      } catch (error) {
        if (error instanceof ScheduleNotFoundError) return false;
        throw error;
      }
    },

    /** Runs a pull now (skipped if one is running). Throws ScheduleNotFoundError when the workspace has no schedule. */
    async trigger(workspaceId: string): Promise<void> {
      await client.schedule.getHandle(adStatsScheduleId(workspaceId)).trigger(ScheduleOverlapPolicy.SKIP);
    },

    async describe(workspaceId: string): Promise<AdStatsScheduleInfo | undefined> {
      try {
        const description = await client.schedule.getHandle(adStatsScheduleId(workspaceId)).describe();
        const last = description.info.recentActions.at(-1);
        return {
          scheduleId: description.scheduleId,
          paused: description.state.paused,
          note: description.state.note ?? null,
          nextRunAt: description.info.nextActionTimes[0] ?? null,
          lastRunAt: last?.takenAt ?? null,
        };
      } catch (error) {
        if (error instanceof ScheduleNotFoundError) return undefined;
        throw error;
      }
    },
  };
}

export type AdStatsSchedules = ReturnType<typeof createAdStatsSchedules>;
