import { ScheduleOverlapPolicy, type Client, type ScheduleDescription } from '@temporalio/client';
import type { RetentionSummary } from '../activities/types';
import { RETENTION_SCHEDULE_ID } from './schedules';

export type { BeforeDaysOutcome, RetentionSummary } from '../activities/types';

export interface RetentionRun {
  /** The workflow the schedule started (`signalbox-retention-<time>`), as the Temporal UI lists it. */
  workflowId: string;
  summary: RetentionSummary;
}

const POLL_MS = 500;
/** How long a trigger may go without a run starting while none is under way (the server takes it within a second or so). */
const START_WITHIN_MS = 60_000;

const startedWorkflows = ({ info }: ScheduleDescription) =>
  new Set([...info.recentActions.map(({ action }) => action), ...info.runningActions].map(({ workflow }) => workflow.workflowId));

/**
 * Runs retention now through its schedule, so that the run is the scheduled one's code, in the worker, recorded in
 * Temporal like any other: the schedule is triggered (after the run under way, if one is: never two at once), then
 * this waits for the run it started and returns what it did. `onStarted` hears of the run as soon as it has begun.
 */
export async function runRetentionNow(client: Client, onStarted: (workflowId: string) => void = () => undefined): Promise<RetentionRun> {
  const schedule = client.schedule.getHandle(RETENTION_SCHEDULE_ID);
  const before = startedWorkflows(await schedule.describe());
  await schedule.trigger(ScheduleOverlapPolicy.BUFFER_ONE);
  let deadline = Date.now() + START_WITHIN_MS;
  for (;;) {
    const description = await schedule.describe();
    const started = [...description.info.runningActions, ...description.info.recentActions.map(({ action }) => action)].find(
      ({ workflow }) => !before.has(workflow.workflowId),
    );
    if (started !== undefined) {
      const { workflowId, firstExecutionRunId } = started.workflow;
      onStarted(workflowId);
      const summary = (await client.workflow.getHandle(workflowId, firstExecutionRunId).result()) as RetentionSummary;
      return { workflowId, summary };
    }
    if (description.info.runningActions.length > 0) deadline = Date.now() + START_WITHIN_MS;
    else if (Date.now() > deadline) throw new Error(`the ${RETENTION_SCHEDULE_ID} schedule started no run within ${START_WITHIN_MS / 1000} s of the trigger`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
