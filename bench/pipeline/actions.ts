import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

/** History events that are billed actions on a metered Temporal service (starts include each continue-as-new run). */
const ACTIONS = new Map<number, string>([
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, 'starts'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, 'signals'],
  [EventType.EVENT_TYPE_MARKER_RECORDED, 'local activities'],
  [EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, 'activities'],
  [EventType.EVENT_TYPE_TIMER_STARTED, 'timers'],
  [EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, 'search attribute updates'],
]);

export interface ActionCount {
  total: number;
  byKind: Record<string, number>;
  runs: number;
}

/** Counts the actions in the histories of every run of every workflow of the workspace (its search attribute). */
export async function countActions(client: Client, workspaceId: string): Promise<ActionCount> {
  const count: ActionCount = { total: 0, byKind: {}, runs: 0 };
  for await (const execution of client.workflow.list({ query: `SignalboxWorkspaceId = '${workspaceId}'` })) {
    count.runs += 1;
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    for (const event of history.events ?? []) {
      const kind = ACTIONS.get(event.eventType ?? 0);
      if (kind === undefined) continue;
      count.total += 1;
      count.byKind[kind] = (count.byKind[kind] ?? 0) + 1;
    }
  }
  return count;
}
