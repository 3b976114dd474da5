import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityDeps } from './deps';

/** The workspace a step works for; a missing one is permanent (the workflow was started for something that is gone). */
export async function loadWorkspace({ repos }: ActivityDeps, workspaceId: string) {
  const workspace = await repos.workspaces.find(workspaceId);
  if (workspace === undefined) throw ApplicationFailure.nonRetryable(`workspace ${workspaceId} does not exist`, 'WorkspaceMissing');
  return workspace;
}
