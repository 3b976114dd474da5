import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { TestAlertInput, TestAlertOutcome } from '../activities/types';
import type { testAlertWorkflow } from '../workflows/alerts';
import { WorkspaceIdAttribute } from '../workflows/search-attributes';

/** How long the person who asked waits for a worker to send the test alert; past it, the run is ended by Temporal. */
const WAIT_SECONDS = 20;

export type { TestAlertOutcome };

export type TestAlertSender = (input: TestAlertInput) => Promise<TestAlertOutcome[]>;

/**
 * "Send a test alert" runs on a worker, where alerts are sent (its mail server, its webhook rules): the API starts
 * `testAlertWorkflow` and waits for its outcome. No worker within `waitSeconds`: WorkflowFailedError.
 */
export function createTestAlertSender(client: Client, taskQueue: string, waitSeconds = WAIT_SECONDS): TestAlertSender {
  return (input) =>
    client.workflow.execute<typeof testAlertWorkflow>('testAlertWorkflow', {
      taskQueue,
      workflowId: `signalbox-test-alert-${input.workspaceId}-${randomUUID()}`,
      args: [input],
      workflowExecutionTimeout: `${waitSeconds} seconds`,
      typedSearchAttributes: [{ key: WorkspaceIdAttribute, value: input.workspaceId }],
    });
}
