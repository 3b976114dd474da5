import { ApplicationFailure } from '@temporalio/activity';
import type { ConversionRow } from '../db/types';
import type { Workspace } from '../db/repositories/workspaces';
import type { TrackedMessage } from '../domain/message';
import type { ActivityDeps } from './deps';

const missingConversion = (conversionId: string) =>
  ApplicationFailure.nonRetryable(`conversion ${conversionId} does not exist`, 'ConversionMissing');

/** The conversion row; a missing row is a permanent error (the workflow was started for something that is gone). */
export async function loadConversion({ repos }: ActivityDeps, conversionId: string): Promise<ConversionRow> {
  const conversion = await repos.conversions.find(conversionId);
  if (conversion === undefined) throw missingConversion(conversionId);
  return conversion;
}

/** The conversion, the message of the event it came from and its workspace, read together; any of them missing is permanent. */
export async function loadConversionContext(
  { repos }: ActivityDeps,
  conversionId: string,
): Promise<{ conversion: ConversionRow; message: TrackedMessage; workspace: Workspace }> {
  const found = await repos.conversions.findWithContext(conversionId);
  if (found === undefined) throw missingConversion(conversionId);
  const { conversion, message, workspace } = found;
  if (message === undefined) throw ApplicationFailure.nonRetryable(`event ${conversion.event_row_id} of conversion ${conversion.id} does not exist`, 'EventMissing');
  if (workspace === undefined) throw ApplicationFailure.nonRetryable(`workspace ${conversion.workspace_id} does not exist`, 'WorkspaceMissing');
  return { conversion, message: message as unknown as TrackedMessage, workspace };
}

export async function loadWorkspace({ repos }: ActivityDeps, workspaceId: string) {
  const workspace = await repos.workspaces.find(workspaceId);
  if (workspace === undefined) throw ApplicationFailure.nonRetryable(`workspace ${workspaceId} does not exist`, 'WorkspaceMissing');
  return workspace;
}
