import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { sendPastEventsWorkflow } from '../workflows/past-events';
import { WorkspaceIdAttribute } from '../workflows/search-attributes';

/** Starts the workflow of a "send past events" run; starting one that runs already does nothing. */
export type PastEventsStarter = (run: { id: string; workspaceId: string }) => Promise<void>;

export const pastEventsWorkflowId = (runId: string) => `signalbox-send-past-events-${runId}`;

export function createPastEventsStarter(client: Client, taskQueue: string): PastEventsStarter {
  return async (run) => {
    try {
      await client.workflow.start<typeof sendPastEventsWorkflow>('sendPastEventsWorkflow', {
        taskQueue,
        workflowId: pastEventsWorkflowId(run.id),
        args: [{ runId: run.id }],
        typedSearchAttributes: [{ key: WorkspaceIdAttribute, value: run.workspaceId }],
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };
}
