import { ApplicationFailure } from '@temporalio/activity';
import type { ConversionRow, EventRow } from '../db/types';
import type { TrackedMessage } from '../domain/message';
import type { ActivityDeps } from './deps';

/** The conversion row; a missing row is a permanent error (the workflow was started for something that is gone). */
export async function loadConversion({ repos }: ActivityDeps, conversionId: string): Promise<ConversionRow> {
  const conversion = await repos.conversions.find(conversionId);
  if (conversion === undefined) throw ApplicationFailure.nonRetryable(`conversion ${conversionId} does not exist`, 'ConversionMissing');
  return conversion;
}

export async function loadEventMessage({ repos }: ActivityDeps, conversion: ConversionRow): Promise<TrackedMessage> {
  const event: EventRow | undefined = await repos.events.find(conversion.event_row_id);
  if (event === undefined) throw ApplicationFailure.nonRetryable(`event ${conversion.event_row_id} of conversion ${conversion.id} does not exist`, 'EventMissing');
  return event.message as unknown as TrackedMessage;
}

export async function loadWorkspace({ repos }: ActivityDeps, workspaceId: string) {
  const workspace = await repos.workspaces.find(workspaceId);
  if (workspace === undefined) throw ApplicationFailure.nonRetryable(`workspace ${workspaceId} does not exist`, 'WorkspaceMissing');
  return workspace;
}
