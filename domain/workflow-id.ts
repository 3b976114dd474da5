import { sha256Hex } from './hashing';

/**
 * Derived from the conversion's unique key (workspace, TikTok event, event_id), so no retry, duplicate batch or sweeper
 * can ever start a second workflow for the same conversion.
 */
export function conversionWorkflowId(workspaceId: string, tiktokEvent: string, eventId: string): string {
  return `conversion-${workspaceId}-${sha256Hex(`${tiktokEvent}\u0000${eventId}`).slice(0, 24)}`;
}
